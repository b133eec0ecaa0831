#!/usr/bin/env python3
"""Extracts every MUST / MUST NOT / SHOULD / SHOULD NOT sentence of the MCP specification pages
the checker's spec map covers (issue 47 item 2), for 2025-11-25 and 2026-07-28.

Reads the pages from a git mirror of modelcontextprotocol/modelcontextprotocol (no network):

    scripts/spec-sentences.py [GIT_DIR] > docs/spec-sentences.tsv

GIT_DIR defaults to /work/.mirror/modelcontextprotocol+modelcontextprotocol/repo. The output
(revision, page, keywords, sentence) is committed; tests/check_spec_map.rs fails when a
sentence in it has no row in docs/spec-map.tsv, so regenerating it after a spec release shows
what the map must add.

A sentence is quoted as the page renders it: markdown emphasis and link targets dropped,
lines of a paragraph joined. A list item is quoted after its lead-in (the sentence before the
list, ending in ":"), since "Servers MUST:" binds the items below it; the lead-in alone is not a
row, and an item's later sentence follows the lead-in after "…". Code blocks, tables' separators, JSX tags and headings are skipped.
"""

import re
import subprocess
import sys

MIRROR = "/work/.mirror/modelcontextprotocol+modelcontextprotocol/repo"

# The pages of base protocol, lifecycle, transports, utilities (ping, cancellation, progress,
# pagination) and server features (tools, resources, prompts, logging, completion). In
# 2026-07-28 lifecycle became versioning and server/discover, utilities became basic/patterns,
# and caching and subscriptions are new server-side utilities. Authorization (judged by
# `--auth`, and its own pages), tasks, mrtr (a server asking the client for input) and the
# client features are outside the map.
PAGES = {
    "2025-11-25": [
        "basic/index",
        "basic/lifecycle",
        "basic/transports",
        "basic/utilities/ping",
        "basic/utilities/cancellation",
        "basic/utilities/progress",
        "server/index",
        "server/tools",
        "server/resources",
        "server/prompts",
        "server/utilities/logging",
        "server/utilities/completion",
        "server/utilities/pagination",
    ],
    "2026-07-28": [
        "basic/index",
        "basic/versioning",
        "server/discover",
        "basic/transports/index",
        "basic/transports/stdio",
        "basic/transports/streamable-http",
        "basic/patterns/cancellation",
        "basic/patterns/progress",
        "basic/patterns/subscriptions",
        "server/index",
        "server/tools",
        "server/resources",
        "server/prompts",
        "server/utilities/logging",
        "server/utilities/completion",
        "server/utilities/pagination",
        "server/utilities/caching",
    ],
}

KEYWORD = re.compile(r"\b(MUST NOT|MUST|SHOULD NOT|SHOULD)\b")
ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+\.)\s+(.*)$")
# Abbreviations a sentence does not end at.
ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.")


def clean(text):
    """The text as rendered: emphasis and link targets dropped, spaces collapsed."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"\[([^\]]*)\]\[[^\]]*\]", r"\1", text)
    text = re.sub(r"<sup>([^<]*)</sup>", r"^\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.replace("**", "")
    text = re.sub(r"(?<![\w`])_([^_`]+)_(?![\w`])", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


def sentences(text):
    """Splits a paragraph into sentences (not at abbreviations, nor inside backticks)."""
    out, start, ticks = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "`":
            ticks ^= 1
        if ticks or ch not in ".!?":
            continue
        if i + 1 < len(text) and text[i + 1] != " ":
            continue
        if any(text[: i + 1].endswith(a) for a in ABBREVIATIONS):
            continue
        rest = text[i + 1 :].lstrip()
        if rest and not (rest[0].isupper() or rest[0] in "`\"(["):
            continue
        out.append(text[start : i + 1].strip())
        start = i + 1
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


def blocks(source):
    """The page's paragraphs and list items, in order: (kind, indent, text)."""
    lines = source.split("\n")
    if lines and lines[0].strip() == "---":
        end = lines.index("---", 1) if "---" in lines[1:] else 0
        lines = lines[end + 1 :]
    out, current, fence = [], None, False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = not fence
            current = None
            out.append(["break", 0, ""])
            continue
        if fence:
            continue
        if not stripped or re.fullmatch(r"\|?[\s:|-]+\|?", stripped):
            current = None
            continue
        if stripped.startswith("#") or re.fullmatch(r"</?[A-Za-z][^>]*>", stripped):
            current = None
            out.append(["break", 0, ""])
            continue
        item = ITEM.match(line)
        if item:
            current = ["item", len(item.group(1)), item.group(2)]
            out.append(current)
        elif stripped.startswith("|"):
            out.append(["row", 0, stripped.strip("|").replace("|", " ")])
            current = None
        elif current is not None:
            current[2] += " " + stripped
        else:
            current = ["para", 0, stripped]
            out.append(current)
    return out


def extract(source):
    """The keyword sentences of a page, each once, in order."""
    found = []
    leads = {}  # indent of a list -> the lead-in its items are quoted after
    pending = None  # a lead-in ending in ":" that the next list (or deeper list) takes
    listed = blocks(source)
    for at, (kind, indent, text) in enumerate(listed):
        if kind == "break":
            leads, pending = {}, None
            continue
        text = clean(text)
        parts = sentences(text)
        if not parts:
            continue
        followed_by_list = at + 1 < len(listed) and listed[at + 1][0] == "item"
        if kind == "item":
            for deeper in [k for k in leads if k > indent]:
                del leads[deeper]
            if indent not in leads:
                leads[indent] = pending
            lead = leads[indent]
            if lead:
                # The item's first sentence follows its lead-in; a later one is quoted
                # after the lead-in with "…" for the sentences between.
                quoted = [f"{lead} {parts[0]}"] + [
                    f"{lead} … {p}" for p in parts[1:] if KEYWORD.search(p)
                ]
            else:
                quoted = parts
            pending = f"{lead} {text}" if lead and text.endswith(":") else (
                text if text.endswith(":") else None
            )
        else:
            leads = {}
            quoted = parts
            pending = parts[-1] if parts[-1].endswith(":") else None
        for i, sentence in enumerate(quoted):
            # A lead-in followed by its list is quoted with each item, not alone.
            if sentence.endswith(":") and i == len(quoted) - 1 and followed_by_list:
                continue
            if KEYWORD.search(sentence) and sentence not in found:
                found.append(sentence)
    return found


def main():
    git = sys.argv[1] if len(sys.argv) > 1 else MIRROR
    print("# revision\tpage\tkeywords\tsentence (generated by scripts/spec-sentences.py)")
    for revision, pages in PAGES.items():
        for page in pages:
            path = f"HEAD:docs/specification/{revision}/{page}.mdx"
            source = subprocess.run(
                ["git", "--git-dir", git, "show", path],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            for sentence in extract(source):
                keywords = []
                for k in KEYWORD.findall(sentence):
                    if k not in keywords:
                        keywords.append(k)
                print(f"{revision}\t{page}\t{', '.join(keywords)}\t{sentence}")


if __name__ == "__main__":
    main()
