#!/usr/bin/env python3
"""Print the markdown tables of a check-real-servers.sh run.

Usage: summarize.py [OUT]   (default: $OUT, else /tmp/mcpwire-real-servers/reports)

Reads OUT/manifest.jsonl (one line per run: server, version, transport, exit, seconds, report,
log, command, note) and each run's `mcpwire check --format json` report (schema
`mcpwire-check/3`, docs/check.md), and prints:

1. one row per run: server, version, transport, checker exit status, cases, the headline:
   failing cases (`failing_cases`) and cases with a strict finding (`strict`), the violation
   kinds and the strict kinds (each with its count of cases), time, and the command that
   reproduces the row;
2. failed checks per rule (failed/total) with one column per run;
3. the finding kinds of each run by level: count, rule ids.

A report of another schema is not read (its row says which schema it has).
"""

import json
import os
import sys
from pathlib import Path

NO_VALUE = "–"
SCHEMA = "mcpwire-check/3"
LEVELS = ("violation", "strict")


def load_runs(out):
    manifest = out / "manifest.jsonl"
    if not manifest.is_file():
        sys.exit(f"summarize.py: no {manifest} (run scripts/check-real-servers.sh first)")
    runs = []
    for number, line in enumerate(manifest.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            run = json.loads(line)
        except json.JSONDecodeError as e:
            sys.exit(f"summarize.py: {manifest}:{number}: {e}")
        run["data"], run["problem"] = load_report(run.get("report"))
        if run["data"] is None and run["problem"]:
            said = last_line(run.get("log"))
            if said:
                run["problem"] = f"{run['problem']}; the checker said: {said}"
        runs.append(run)
    return runs


def load_report(path):
    """The report as a dict, or None and why not."""
    if not path:
        return None, None
    try:
        text = Path(path).read_text()
    except OSError as e:
        return None, f"no report ({e.strerror})"
    if not text.strip():
        return None, "empty report"
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        return None, f"report is not JSON ({e})"
    if not isinstance(data, dict):
        return None, "report is not a JSON object"
    if data.get("schema") != SCHEMA:
        return None, f"report schema {data.get('schema')!r}, not {SCHEMA!r}"
    return data, None


def last_line(path):
    """The last non-empty line of a text file, or None."""
    try:
        lines = [line.strip() for line in Path(path).read_text(errors="replace").splitlines()]
    except (OSError, TypeError):
        return None
    lines = [line for line in lines if line]
    return lines[-1] if lines else None


def rule_tallies(data):
    """[(rule, passed, failed)] from the report's `rules`."""
    tallies = []
    for tally in data.get("rules") or []:
        if isinstance(tally, dict):
            tallies.append(
                (str(tally.get("rule", "?")), int(tally.get("passed", 0)), int(tally.get("failed", 0)))
            )
    return tallies


def kinds_by_level(data):
    """{level: {kind: (count, [rule ids])}} in the report's order; a kind can fail several
    rules, its count is summed over them."""
    kinds = {level: {} for level in LEVELS}
    for failure in data.get("failures") or []:
        if not isinstance(failure, dict):
            continue
        level = failure.get("level")
        kind = str(failure.get("kind", "?"))
        count, rules = kinds.setdefault(level, {}).get(kind, (0, []))
        count += int(failure.get("count", 0) or 0)
        rule = str(failure.get("rule_id", "?"))
        if rule not in rules:
            rules.append(rule)
        kinds[level][kind] = (count, rules)
    return kinds


def kind_counts(kinds):
    """`kind` N, … for one level, most frequent first."""
    ordered = sorted(kinds.items(), key=lambda item: -item[1][0])
    return ", ".join(f"`{kind}` {count}" for kind, (count, _) in ordered) or NO_VALUE


def cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def exit_text(run):
    code = run.get("exit")
    if code is None:
        return NO_VALUE
    meaning = {0: "0", 1: "1", 2: "2 (not checked)", 124: "timeout", 137: "timeout"}
    return meaning.get(code, str(code))


def run_label(run):
    return f"{run.get('server', '?')} {run.get('transport', '?')}"


def main_table(runs):
    columns = [
        "server",
        "version",
        "transport",
        "exit",
        "cases",
        "failing cases",
        "strict cases",
        "violation kinds",
        "strict kinds",
        "time",
        "command",
    ]
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for run in runs:
        data = run["data"]
        seconds = run.get("seconds")
        if not isinstance(seconds, (int, float)):
            time = NO_VALUE
        else:
            time = "< 0.1 s" if seconds < 0.05 else f"{seconds:.1f} s"
        command = f"`{cell(run['command'])}`" if run.get("command") else NO_VALUE
        head = (
            f"| {cell(run.get('server', '?'))} | {cell(run.get('version') or NO_VALUE)} "
            f"| {cell(run.get('transport', '?'))} | {exit_text(run)} "
        )
        if data is None:
            why = run.get("note") or run.get("problem") or "no report"
            lines.append(f"{head}| {cell(why)} | | | | | {time} | {command} |")
            continue
        kinds = kinds_by_level(data)
        aborted = f" (aborted: {cell(data['aborted'])})" if data.get("aborted") else ""
        lines.append(
            f"{head}| {data.get('cases', NO_VALUE)}{aborted} "
            f"| {data.get('failing_cases', NO_VALUE)} | {data.get('strict', NO_VALUE)} "
            f"| {kind_counts(kinds['violation'])} | {kind_counts(kinds['strict'])} "
            f"| {time} | {command} |"
        )
    return lines


def rules_table(runs):
    checked = [run for run in runs if run["data"] is not None]
    if not checked:
        return []
    rules = []
    for run in checked:
        for rule, _, _ in rule_tallies(run["data"]):
            if rule not in rules:
                rules.append(rule)
    lines = [
        "| rule | " + " | ".join(cell(run_label(run)) for run in checked) + " |",
        "|---|" + "---|" * len(checked),
    ]
    for rule in rules:
        cells = []
        for run in checked:
            found = [(p, f) for r, p, f in rule_tallies(run["data"]) if r == rule]
            cells.append(f"{found[0][1]}/{sum(found[0])}" if found else NO_VALUE)
        lines.append(f"| {cell(rule)} | " + " | ".join(cells) + " |")
    return lines


def kinds_list(runs):
    lines = []
    for run in runs:
        data = run["data"]
        if data is None:
            continue
        parts = []
        for level, kinds in kinds_by_level(data).items():
            if kinds:
                listed = ", ".join(
                    f"`{kind}` ({count}; {', '.join(rules)})" for kind, (count, rules) in kinds.items()
                )
                parts.append(f"{level}: {listed}")
        lines.append(f"- {run_label(run)}: " + ("; ".join(parts) if parts else "none"))
    return lines


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    default = os.environ.get("OUT") or "/tmp/mcpwire-real-servers/reports"
    runs = load_runs(Path(argv[1] if len(argv) == 2 else default))
    print("\n".join(main_table(runs)))
    rules = rules_table(runs)
    if rules:
        print("\nFailed checks per rule (failed/total):\n")
        print("\n".join(rules))
    kinds = kinds_list(runs)
    if kinds:
        print("\nFinding kinds by level (count; rule ids):\n")
        print("\n".join(kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
