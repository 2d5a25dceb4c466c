#!/usr/bin/env python3
"""help-to-man.py PROGRAM OUT: a man page (section 1) for PROGRAM made from its own --help and
that of each subcommand (and their subcommands), so the page says what the program says. The
help texts are set as they are printed (no-fill, 80 columns); only roff's special characters are
escaped. SOURCE_DATE_EPOCH, when set, dates the page (reproducible packages).
"""
import datetime
import os
import re
import subprocess
import sys


def help_text(program, words):
    env = dict(os.environ, COLUMNS="80")
    result = subprocess.run([program] + words + ["--help"], capture_output=True, text=True, env=env)
    if result.returncode != 0:
        sys.exit("help-to-man: %s %s --help failed: %s" % (program, " ".join(words), result.stderr))
    return result.stdout.rstrip("\n")


def subcommands(text):
    """The names under SUBCOMMANDS: (two spaces, a name, then its abstract), without `help`."""
    block = re.search(r"^SUBCOMMANDS:\n((?:  .*\n?|\n)*)", text, re.M)
    if not block:
        return []
    names = re.findall(r"^  ([a-z][a-z0-9-]*)(?: \(default\))?(?:[ \t]{2,}|$)", block.group(1), re.M)
    return [n for n in names if n != "help"]


def roff(text):
    out = []
    for line in text.split("\n"):
        line = line.replace("\\", "\\e").replace("-", "\\-")
        if line.startswith(".") or line.startswith("'"):
            line = "\\&" + line
        out.append(line)
    return "\n".join(out)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: help-to-man.py PROGRAM OUT")
    program, out = sys.argv[1], sys.argv[2]
    name = os.path.basename(program)
    top = help_text(program, [])
    overview = re.search(r"^OVERVIEW: (.*(?:\n(?!\n).*)*)", top, re.M)
    summary = " ".join(overview.group(1).split()) if overview else name
    version = subprocess.run([program, "--version"], capture_output=True, text=True).stdout.strip()
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0")) or int(datetime.datetime.now(datetime.timezone.utc).timestamp())
    date = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc).strftime("%Y-%m-%d")
    page = [
        '.TH %s 1 "%s" "%s %s" "User Commands"' % (name.upper(), date, name, version),
        ".SH NAME",
        "%s \\- %s" % (name, roff(summary.rstrip("."))),
        ".SH SYNOPSIS",
        ".B %s" % roff(name),
        "\\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]",
        ".SH DESCRIPTION",
        ".nf",
        roff(top),
        ".fi",
    ]
    pending = [[s] for s in subcommands(top)]
    if pending:
        page.append(".SH COMMANDS")
    while pending:
        words = pending.pop(0)
        text = help_text(program, words)
        page += ['.SS "%s %s"' % (name, " ".join(words)), ".nf", roff(text), ".fi"]
        pending = [words + [s] for s in subcommands(text)] + pending
    with open(out, "w") as f:
        f.write("\n".join(page) + "\n")


if __name__ == "__main__":
    main()
