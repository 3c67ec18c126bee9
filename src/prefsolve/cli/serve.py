"""The ``serve`` command: the web analysis board on a local address.

``prefsolve serve [--host 127.0.0.1] [--port 8000] [--open]`` runs the
server of :mod:`prefsolve.web` with uvicorn until Ctrl-C. It needs the
``web`` extra; without it the command says so in one line (exit 1).

>>> board_url("0.0.0.0", 8000)
'http://127.0.0.1:8000/'
"""

from __future__ import annotations

import threading
import webbrowser

import click

from ..web import missing_module
from ._common import command

WEB_HINT = 'prefsolve serve needs the web extra ({name} is missing): pip install "prefsolve[web]"'


def board_url(host: str, port: int) -> str:
    """The address to open: an unspecified host (0.0.0.0, ::) is reached on the loopback."""
    shown = {"0.0.0.0": "127.0.0.1", "::": "[::1]", "": "127.0.0.1"}.get(host, host)
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


@command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; anything but the loopback lets other machines use the board.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port to listen on (0: any free port).")
@click.option("--open", "open_browser", is_flag=True, help="Open the board in the web browser.")
def serve(host: str, port: int, open_browser: bool) -> None:
    """The web analysis board: paste a deal, see the table, play it by clicking.

    \b
        prefsolve serve --open
    """
    name = missing_module()
    if name is not None:
        raise click.ClickException(WEB_HINT.format(name=name))
    import uvicorn

    from ..web.server import create_app

    config = uvicorn.Config(create_app(host=host), host=host, port=port, log_level="warning",
                            timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)

    def announce() -> None:     # once listening: the real port, when 0 asked for any
        for _ in range(200):
            if server.started:
                break
            threading.Event().wait(0.05)
        else:
            return
        bound = port
        for s in getattr(server, "servers", []):
            for sock in s.sockets:
                bound = sock.getsockname()[1]
        url = board_url(host, bound)
        click.echo(f"prefsolve board at {url} (Ctrl-C stops it)")
        if open_browser:
            webbrowser.open(url)

    threading.Thread(target=announce, daemon=True).start()
    server.run()


COMMANDS = (serve,)
