"""The ``serve`` command: the web analysis board on a local address.

``prefsolve serve [--host 127.0.0.1] [--port 8000] [--open]`` runs the
server of :mod:`prefsolve.web` with uvicorn until Ctrl-C. Once it listens it
prints the address really bound (the port chosen for ``--port 0``; for an
address of every interface, this machine's network address), after one
warning line on stderr when other machines can reach it. It needs the
``web`` extra; without it the command says so in one line (exit 1).

>>> _(WEB_HINT, name="uvicorn")
'prefsolve serve needs the web extra (uvicorn is missing): pip install "prefsolve[web]"'
"""

from __future__ import annotations

import threading
import webbrowser

import click

from ..i18n import N_, _
from ..web import missing_module
from ._common import command

WEB_HINT = N_('prefsolve serve needs the web extra ({name} is missing): pip install "prefsolve[web]"')


@command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help=N_("Address to listen on; anything but the loopback lets other machines use the board."))
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help=N_("Port to listen on (0: any free port)."))
@click.option("--open", "open_browser", is_flag=True, help=N_("Open the board in the web browser."))
def serve(host: str, port: int, open_browser: bool) -> None:
    """The web analysis board: paste a deal, see the table, play it by clicking.

    \b
        prefsolve serve --open
    """
    name = missing_module()
    if name is not None:
        raise click.ClickException(_(WEB_HINT, name=name))
    from ..web.listen import board_server, board_url, bound, exposure
    from ..web.server import create_app

    server = board_server(create_app(host=host), host, port)

    def announce() -> None:     # once listening: the address and port really bound
        for _attempt in range(200):
            if server.started:
                break
            threading.Event().wait(0.05)
        else:
            return
        addresses = bound(server) or [(host, port)]
        warning = exposure([address for address, _ in addresses])
        if warning is not None:
            click.echo(warning, err=True)
        url = board_url(*addresses[0])
        click.echo(_("prefsolve board at {url} (Ctrl-C stops it)", url=url))
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    server.run()


COMMANDS = (serve,)
