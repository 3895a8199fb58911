"""What a pattern that no rung reads is, when it is plainly not code: a comment, or plain words.
The refusal then says so and what to search with instead (issue "no silent zero")."""

from __future__ import annotations

import re

from minitools.match._grammars import parser_for

__all__ = ["not_code_hint"]

_WORDS = re.compile(r"[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*)+[.!?]?")


def not_code_hint(source: str, language: str) -> str:
    """"" for a fragment that is meant as code; else a sentence saying what it reads as and how
    to find it (a comment: a rule on the comment kind; plain words: a text search)."""
    text = source.strip()
    if not text:
        return ""
    root = parser_for(language).parse(text.encode("utf-8")).root_node
    kids = root.named_children
    if kids and not root.has_error and all("comment" in k.type for k in kids):
        kind = kids[0].type
        return (f"; it reads as a {language} comment, and a pattern matches code, never comments: to find comments, "
                f'give a rule such as {{"rule": {{"kind": "{kind}", "regex": "TODO"}}}} (the CLI: scan --inline-rules)')
    if _WORDS.fullmatch(text):
        return "; it reads as plain words, not code: search the text with grep, or write the code it stands for"
    return ""
