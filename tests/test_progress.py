"""The commands' one progress display (bgcli.cli.progress), off a terminal."""

from __future__ import annotations

from bgcli.cli.progress import Progress


def test_off_a_terminal_a_line_now_and_then_and_every_message(capsys):
    progress = Progress("work", 10, every=3600)
    assert not progress.live  # pytest's stderr is no terminal
    progress.update(1, "status", "a line too soon")
    progress.update(2, "status", "the last line", force=True)
    progress.message("bgcli: error: 3: a message")
    progress.close()
    out, err = capsys.readouterr()
    assert out == "" and err == "the last line\nbgcli: error: 3: a message\n"


def test_a_line_at_every_update_once_the_interval_has_passed(capsys):
    progress = Progress("work", None, every=0)
    for step in range(3):
        progress.update(step, line=f"step {step}")
    progress.update(3)  # no line given: nothing to write
    assert capsys.readouterr().err == "step 0\nstep 1\nstep 2\n"
