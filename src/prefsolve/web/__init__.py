"""The web analysis board: ``prefsolve serve`` starts it (docs/WEB.md).

A page of plain HTML, CSS and ES modules (:data:`STATIC`, no build step and
nothing fetched from elsewhere) over a small JSON API whose answers have the
shapes of the command line's ``--json`` (docs/JSON.md). The server lives in
:mod:`.server` and needs the ``web`` extra (``pip install "prefsolve[web]"``:
Starlette and uvicorn); importing this package does not, so that ``serve``
can name the extra when it is missing. Every request first passes
:mod:`.guard` (its host, its origin, its body); :mod:`.pool` queues the
quick requests and :mod:`.jobs` runs the long analyses, one per client, each
dropped or cancelled when its client goes away; :mod:`.listen` is how
uvicorn serves it (the deadlines of a connection, the address printed).

>>> STATIC.name, (STATIC / "index.html").is_file()
('static', True)
"""

from pathlib import Path

#: The folder of the page's files, the only files the server sends.
STATIC = Path(__file__).parent / "static"

#: What ``prefsolve serve`` needs beyond the package's own dependencies.
WEB_MODULES = ("starlette", "uvicorn")


def missing_module() -> str | None:
    """The first module of the ``web`` extra that cannot be imported, or None."""
    import importlib.util

    for name in WEB_MODULES:
        if importlib.util.find_spec(name) is None:
            return name
    return None
