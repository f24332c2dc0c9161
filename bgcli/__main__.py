from .cli.process import run

run()
