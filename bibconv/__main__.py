"""``python -m bibconv``: the command line."""

from bibconv.cli import main

main(prog_name="bibconv")
