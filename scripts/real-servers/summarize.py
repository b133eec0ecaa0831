#!/usr/bin/env python3
"""Print the markdown tables of a check-real-servers.sh run.

Usage: summarize.py [OUT]   (default: $OUT, else /tmp/mcpwire-real-servers/reports)

Reads OUT/manifest.jsonl (one line per run: server, version, transport, exit, seconds, report,
log, command, note) and each run's `mcpwire check --format json` report, and prints:

1. one row per run: server, version, transport, checker exit status, cases, failed checks,
   failure kinds, violations and strict totals, time, and the command that reproduces the row;
2. failed checks per rule (failed/total) with one column per run;
3. the failure kinds of each run: cases (summed over rules) and the rules they failed.

It reads whatever fields the report has. Reports without the `violations`/`strict` totals (the
format before failure levels) show "–" there, and a note says so; when failures carry a `level`
but the totals are missing, the kinds are counted per level instead.
"""

import json
import os
import re
import sys
from pathlib import Path

NO_VALUE = "–"


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


def failures(data):
    return [f for f in data.get("failures") or [] if isinstance(f, dict)]


def level_totals(data):
    """(violations, strict) as the report states them, else counted from per-kind levels, else
    None; the second item says which."""
    if "violations" in data or "strict" in data:
        return (data.get("violations"), data.get("strict")), "totals"
    levels = [f.get("level") for f in failures(data)]
    if levels and all(level is not None for level in levels):
        return (levels.count("violation"), levels.count("strict")), "kinds"
    return None, None


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
    notes = set()
    columns = [
        "server",
        "version",
        "transport",
        "exit",
        "cases",
        "failed checks",
        "failure kinds",
        "violations",
        "strict",
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
        if data is None:
            why = run.get("note") or run.get("problem") or "no report"
            lines.append(
                f"| {cell(run.get('server', '?'))} | {cell(run.get('version') or NO_VALUE)} "
                f"| {cell(run.get('transport', '?'))} | {exit_text(run)} "
                f"| {cell(why)} | | | | | {time} | {command} |"
            )
            continue
        tallies = rule_tallies(data)
        failed = sum(f for _, _, f in tallies)
        total = sum(p + f for _, p, f in tallies)
        totals, source = level_totals(data)
        if totals is None:
            violations = strict = NO_VALUE
            notes.add(
                "The reports have no `violations`/`strict` totals and no per-kind `level` "
                "(the report format before failure levels): those columns are empty."
            )
        else:
            violations, strict = (NO_VALUE if v is None else v for v in totals)
            if source == "kinds":
                notes.add(
                    "`violations`/`strict` count failure kinds by their `level` "
                    "(the reports carry no totals)."
                )
        aborted = " (aborted)" if data.get("aborted") else ""
        lines.append(
            f"| {cell(run.get('server', '?'))} | {cell(run.get('version') or NO_VALUE)} "
            f"| {cell(run.get('transport', '?'))} | {exit_text(run)} "
            f"| {data.get('cases', NO_VALUE)}{aborted} | {failed}/{total} "
            f"| {len(kinds_by_name(data))} | {violations} | {strict} | {time} | {command} |"
        )
    return lines, sorted(notes)


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


def short_rule(rule):
    """`wire rule 4 (id recovery)` -> `4`; other rule names as they are."""
    match = re.match(r"wire rule (\d+)", rule)
    return match.group(1) if match else rule


def kinds_by_name(data):
    """{kind: (cases, [rules], level)} in the report's order; a kind can fail several rules."""
    kinds = {}
    for failure in failures(data):
        kind = str(failure.get("kind", "?"))
        cases, rules, level = kinds.get(kind, (0, [], failure.get("level")))
        cases += int(failure.get("cases", 0) or 0)
        rule = short_rule(str(failure.get("rule", "?")))
        if rule not in rules:
            rules.append(rule)
        kinds[kind] = (cases, rules, level)
    return kinds


def kinds_list(runs):
    lines = []
    for run in runs:
        data = run["data"]
        if data is None:
            continue
        kinds = []
        for kind, (cases, rules, level) in kinds_by_name(data).items():
            text = f"`{kind}` ({cases}; {', '.join(rules)})"
            if level:
                text += f" [{level}]"
            kinds.append(text)
        lines.append(f"- {run_label(run)}: " + (", ".join(kinds) if kinds else "none"))
    return lines


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1] in ("-h", "--help")):
        print(__doc__.strip())
        return 0 if len(argv) == 2 else 2
    default = os.environ.get("OUT") or "/tmp/mcpwire-real-servers/reports"
    runs = load_runs(Path(argv[1] if len(argv) == 2 else default))
    table, notes = main_table(runs)
    print("\n".join(table))
    for note in notes:
        print(f"\nNote: {note}")
    rules = rules_table(runs)
    if rules:
        print("\nFailed checks per rule (failed/total):\n")
        print("\n".join(rules))
    kinds = kinds_list(runs)
    if kinds:
        print("\nFailure kinds (cases; rules):\n")
        print("\n".join(kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
