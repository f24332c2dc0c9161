"""The report as Markdown (GitHub's dialect): the HTML page's twin, its images linked from
``images/`` beside it."""

from __future__ import annotations

import re

from .document import Code, Document, Group, Image, Link, Section, Table

_SPECIAL = re.compile(r"([\\`*_<|])")


def escape(text: str) -> str:
    return _SPECIAL.sub(r"\\\1", str(text)).replace("\n", " ")


def _cell(cell) -> str:
    if isinstance(cell, Code):
        return f"`{cell.text}`" if "`" not in cell.text else escape(cell.text)
    if isinstance(cell, Link):
        return f"[{escape(cell.text)}](#{cell.anchor})"
    return escape(str(cell))


def _table(table: Table) -> str:
    columns = table.columns if any(table.columns) else [" "] * len(table.columns)
    numeric = table.numeric or [False] * len(columns)
    lines = ["| " + " | ".join(escape(c) if c.strip() else " " for c in columns) + " |",
             "|" + "|".join("---:" if num else "---" for num in numeric) + "|"]
    for row in table.rows:
        lines.append("| " + " | ".join(_cell(c) for c in row) + " |")
    if table.caption:
        lines.append("")
        lines.append(f"*{escape(table.caption)}*")
    return "\n".join(lines)


def _image(image: Image) -> str:
    return f"![{escape(image.alt)}](images/{image.name})"


def _inline(parts) -> str:
    """A paragraph: text, or a list of text, Code and Link runs."""
    if isinstance(parts, (str, Code, Link)):
        parts = [parts]
    return "".join(_cell(part) for part in parts)


def _block(block) -> str:
    if isinstance(block, (str, list)):
        return _inline(block)
    if isinstance(block, Table):
        return _table(block)
    if isinstance(block, Image):
        return _image(block)
    if isinstance(block, Group):
        return "\n\n".join(_block(b) for b in block.blocks)
    raise TypeError(f"unknown block {block!r}")  # pragma: no cover


def _section(section: Section) -> str:
    parts = [f'<a id="{section.anchor}"></a>', "", f"## {escape(section.heading)}"]
    parts += ["", *("\n\n".join(_block(b) for b in section.blocks).splitlines())]
    return "\n".join(parts)


def render(document: Document) -> str:
    parts = [f"# {escape(document.title)}", ""]
    parts += ["\n\n".join(_inline(p) for p in document.intro), ""]
    parts += ["\n\n".join(_section(s) for s in document.sections), ""]
    parts += ["---", "", "\n\n".join(_inline(line) for line in document.footer), ""]
    return "\n".join(parts)
