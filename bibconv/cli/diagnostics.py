"""Diagnostics on stderr, grouped: the first few of each kind with their ``file:line``, the rest
counted, every one in the ``--report`` file as a JSON line, and a closing summary line."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import IO

import click

from bibconv.errors import Diagnostic
from bibconv.patterns import lazy

__all__ = ["SHOWN_PER_KIND", "Printer", "kind_of"]

SHOWN_PER_KIND = 3
"""Warnings of one kind shown before the rest are only counted (``--verbose`` shows all)."""

# Quoted text, and numbers that stand alone (not those in names such as UTF-8 or Windows-1252).
# Every branch starts with its first character (the test of the one before a number follows it), so
# that the regex engine looks only where a quote or a digit is: twice as fast on a line of text.
_QUOTED = lazy(r"'[^']*'|\"[^\"]*\"|\d(?<![\w.-]\d)\d*(?:[.,]\d+)*(?![\w-])")


def kind_of(diagnostic: Diagnostic) -> str:
    """What a diagnostic says without its particulars (quoted names, numbers): its kind.

    >>> kind_of(Diagnostic("RIS has no tag for the 'original-date' date; dropped"))
    "RIS has no tag for the '…' date; dropped"
    >>> kind_of(Diagnostic("byte 0xe9 is not UTF-8: 1,048,576 bytes read as Windows-1252"))
    'byte 0xe9 is not UTF-8: N bytes read as Windows-1252'
    """
    return _QUOTED.sub(lambda m: "'…'" if m.group()[0] in "'\"" else "N", diagnostic.message)


class Printer:
    """Prints diagnostics as they are settled and counts them by kind for the summary."""

    def __init__(self, quiet: bool, verbose: bool, report: IO[str] | None) -> None:
        self.quiet = quiet
        self.verbose = verbose
        self.report = report
        self.kinds: Counter[str] = Counter()
        self.severities: Counter[str] = Counter()
        self.started = time.monotonic()

    def show(self, diagnostic: Diagnostic) -> None:
        self.show_all([diagnostic])

    def show_all(self, diagnostics: list[Diagnostic]) -> None:
        """Settle ``diagnostics`` in turn; the lines they print are written 10,000 at a time (a write
        for each of 300,000 errors took a third of the time of reading them)."""
        lines: list[str] = []
        for diagnostic in diagnostics:
            line = self._settle(diagnostic)
            if line is not None:
                lines.append(line)
                if len(lines) == 10_000:
                    click.echo("\n".join(lines), err=True)
                    lines.clear()
        if lines:
            click.echo("\n".join(lines), err=True)

    def _settle(self, diagnostic: Diagnostic) -> str | None:
        """Count and report ``diagnostic``; the line it prints, if any."""
        self.severities[diagnostic.severity] += 1
        if self.report is not None:
            self.report.write(json.dumps(_as_json(diagnostic), ensure_ascii=False) + "\n")
        if diagnostic.severity == "error":
            return str(diagnostic)
        if self.quiet:  # neither shown nor counted by kind: no summary follows
            return None
        kind = kind_of(diagnostic)
        self.kinds[kind] += 1
        if self.verbose or self.kinds[kind] <= SHOWN_PER_KIND:
            return str(diagnostic)
        return None

    def closing_lines(self, skipped: int, counts: tuple[int, int] | None = None) -> list[str]:
        """The count of each kind not all shown, then the summary line (records read and written
        when ``counts`` gives them, skipped, warnings by kind, time): on a terminal, or after a list
        cut short."""
        lines: list[str] = []
        if self.quiet:
            return lines
        if not self.verbose:
            for kind, count in self.kinds.items():
                if count > SHOWN_PER_KIND:
                    lines.append(f"bibconv: {count - SHOWN_PER_KIND:,} more warnings like: {kind}")
        if not lines and not click.get_text_stream("stderr").isatty():
            return lines  # the summary is for a terminal, or for a list cut short above
        lines.append("bibconv: " + ", ".join(self._summary(skipped, counts)))
        return lines

    def _summary(self, skipped: int, counts: tuple[int, int] | None) -> list[str]:
        warnings = sum(self.kinds.values())
        by_kind = "; ".join(f"{count:,} × {kind}" for kind, count in self.kinds.most_common(3))
        more = "; …" if len(self.kinds) > 3 else ""
        parts = []
        if counts is not None:
            read, written = counts
            parts += [f"{_records(read + skipped)} in", f"{written:,} out"]
        parts += [f"{skipped:,} skipped", f"{warnings:,} warning{'s' if warnings != 1 else ''}"]
        if by_kind:
            parts[-1] += f" ({by_kind}{more})"
        parts.append(f"{time.monotonic() - self.started:.1f} s")
        return parts


def _records(count: int) -> str:
    return f"{count:,} record{'s' if count != 1 else ''}"


def _as_json(diagnostic: Diagnostic) -> dict[str, object]:
    span = diagnostic.span
    return {
        "severity": diagnostic.severity,
        "kind": kind_of(diagnostic),
        "message": diagnostic.message,
        "file": span.filename if span else None,
        "line": span.line if span else None,
        "column": span.column if span else None,
        "item": span.index if span else None,
        "entry": diagnostic.record_id,
    }
