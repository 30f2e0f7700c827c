import click


def register(cli: click.Group) -> None:
    pass
