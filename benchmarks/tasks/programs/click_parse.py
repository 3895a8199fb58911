"""Runs a Click command on a fixed command line (a value task's program)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

import click


@click.command()
@click.option("--name", default="world")
@click.option("-v", "--verbose", count=True)
@click.argument("files", nargs=-1)
def cli(name: str, verbose: int, files: tuple[str, ...]) -> None:
    click.echo(f"{name} {verbose} {files}")


cli.main(["a.txt", "--name", "ann", "-v", "b.txt", "-vv", "--", "-c.txt"], standalone_mode=False)
