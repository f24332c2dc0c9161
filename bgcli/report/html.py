"""The report as one self-contained HTML page: styles inline, images embedded as data URIs,
no script or font from the network, so it opens offline from anywhere it is copied.

A short script, run when the page has loaded, counts the images the browser could decode and
writes the count on ``<body data-images-loaded="N/M">`` (the tests read it back from a
headless browser).
"""

from __future__ import annotations

import base64
from html import escape

from .document import Code, Document, Group, Image, Link, Section, Table

_STYLE = """
:root { color-scheme: light; }
body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif;
       color: #222; background: #faf8f3; margin: 0; line-height: 1.45; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 28px 40px; }
h1 { font-size: 1.7em; margin: 0.2em 0 0.4em; }
h2 { font-size: 1.3em; margin: 1.6em 0 0.6em; padding-top: 0.6em; border-top: 2px solid #e4dccb; }
p { margin: 0.4em 0 0.8em; max-width: 62em; }
code { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.92em;
       background: #efe9dc; padding: 0 3px; border-radius: 3px; word-break: break-all; }
table { border-collapse: collapse; margin: 0.3em 0 1em; font-size: 0.92em; background: #fff; }
caption { caption-side: bottom; text-align: left; font-size: 0.85em; color: #666;
          padding-top: 4px; max-width: 36em; }
th, td { border: 1px solid #ddd3bf; padding: 3px 8px; vertical-align: top; }
th { background: #efe9dc; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.group { display: flex; flex-wrap: wrap; gap: 12px 24px; align-items: flex-start; }
.group > * { flex: 1 1 360px; min-width: 0; }
.group > figure.board { flex: 0 1 560px; }
figure { margin: 0; }
img { display: block; width: 100%; height: auto; }
figure.board img { max-width: 560px; }
nav { font-size: 0.9em; }
footer { margin-top: 2.5em; padding-top: 0.8em; border-top: 2px solid #e4dccb; font-size: 0.88em;
         color: #555; }
footer p { margin: 0.2em 0; }
"""

_SCRIPT = """
window.addEventListener("load", function () {
  var images = Array.prototype.slice.call(document.images);
  var loaded = images.filter(function (img) { return img.complete && img.naturalWidth > 0; });
  document.body.setAttribute("data-images-loaded", loaded.length + "/" + images.length);
});
"""


def data_uri(image: Image) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(image.data).decode("ascii")


def _cell(cell) -> str:
    if isinstance(cell, Code):
        return f"<code>{escape(cell.text)}</code>"
    if isinstance(cell, Link):
        return f'<a href="#{escape(cell.anchor)}">{escape(cell.text)}</a>'
    return escape(str(cell))


def _table(table: Table) -> str:
    numeric = table.numeric or [False] * len(table.columns)
    parts = ["<table>"]
    if table.caption:
        parts.append(f"<caption>{escape(table.caption)}</caption>")
    if any(table.columns):
        parts.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in table.columns)
                     + "</tr></thead>")
    parts.append("<tbody>")
    for row in table.rows:
        cells = []
        for index, cell in enumerate(row):
            css = ' class="num"' if index < len(numeric) and numeric[index] else ""
            tag = "th" if index == 0 and not any(table.columns) else "td"
            cells.append(f"<{tag}{css}>{_cell(cell)}</{tag}>")
        parts.append("<tr>" + "".join(cells) + "</tr>")
    parts.append("</tbody></table>")
    return "".join(parts)


def _image(image: Image) -> str:
    css = ' class="board"' if image.name.endswith("-board.svg") else ""
    return (f'<figure{css}><img src="{data_uri(image)}" alt="{escape(image.alt)}" '
            f'title="{escape(image.alt)}"></figure>')


def _inline(parts) -> str:
    """A paragraph: text, or a list of text, Code and Link runs."""
    if isinstance(parts, (str, Code, Link)):
        parts = [parts]
    return "".join(_cell(part) for part in parts)


def _block(block) -> str:
    if isinstance(block, (str, list)):
        return f"<p>{_inline(block)}</p>"
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Image):
        return _image(block)
    if isinstance(block, Group):
        inner = []
        tables = [b for b in block.blocks if isinstance(b, Table)]
        images = [b for b in block.blocks if not isinstance(b, Table)]
        for item in images[:1]:
            inner.append(_block(item))
        if tables:  # tables in a group share one column
            inner.append("<div>" + "".join(_block(t) for t in tables) + "</div>")
        for item in images[1:]:
            inner.append(_block(item))
        return '<div class="group">' + "".join(inner) + "</div>"
    raise TypeError(f"unknown block {block!r}")  # pragma: no cover


def _section(section: Section) -> str:
    body = "".join(_block(b) for b in section.blocks)
    return (f'<section id="{escape(section.anchor)}"><h2>{escape(section.heading)}</h2>'
            f"{body}</section>")


def render(document: Document) -> str:
    """The page as a string (UTF-8 HTML5)."""
    nav = " · ".join(f'<a href="#{escape(s.anchor)}">{escape(s.heading)}</a>'
                     for s in document.sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="generator" content="bgcli report">',
        f"<title>{escape(document.title)}</title>",
        f"<style>{_STYLE}</style>",
        f"<script>{_SCRIPT}</script>",
        "</head><body><main>",
        f"<h1>{escape(document.title)}</h1>",
        "".join(f"<p>{_inline(p)}</p>" for p in document.intro),
        f"<nav>{nav}</nav>",
        "\n".join(_section(s) for s in document.sections),
        '<footer id="settings">' + "".join(f"<p>{_inline(line)}</p>" for line in document.footer)
        + "</footer>",
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"
