"""Test-session set-up shared by every test file."""

import signal

# A shell starts background jobs (`nohup ... &`, some CI runners) with SIGINT ignored, and
# Python then leaves it ignored: the Ctrl-C tests, and the bgcli processes they start (which
# inherit it), would never see a Ctrl-C. The tests run as if started from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
