"""A small worker runner for the tests: `runner.py BRIEF_FILE RESULT_FILE`.

The last line of the brief that starts with "do:" says what to do, so a follow-up sent
with vibe_send changes the behaviour and the test can see the longer brief was used.
"""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

brief_file, result_file = sys.argv[1], sys.argv[2]
brief = Path(brief_file).read_text()
orders = [line[3:].strip() for line in brief.splitlines() if line.startswith("do:")]
order = orders[-1] if orders else "echo"
word, _, rest = order.partition(" ")


def block():
    while True:
        signal.pause()


if word == "echo":
    print("progress: working on it", file=sys.stderr)
    with open(result_file, "w") as out:
        out.write("RESULT\n" + brief)
elif word == "stdout":
    print("the answer is 42")
elif word == "fail":
    print("something broke on line 7", file=sys.stderr)
    sys.exit(3)
elif word == "empty":
    sys.exit(0)
elif word == "block":
    print("started, now waiting", file=sys.stderr, flush=True)
    block()
elif word == "tree":
    # a grandchild that ignores SIGTERM, so only a kill of the whole group stops it
    stubborn = ["-c", "import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\nwhile True: signal.pause()"]
    child = subprocess.Popen([sys.executable, *stubborn])
    # and one gone to a session (and process group) of its own, as an agent CLI's shell may be
    escaped = subprocess.Popen([sys.executable, *stubborn], start_new_session=True)
    tmp = rest + ".tmp"
    with open(tmp, "w") as out:
        json.dump({"worker": os.getpid(), "grandchild": child.pid, "escaped": escaped.pid}, out)
    os.rename(tmp, rest)
    block()
elif word == "chatty":
    for i in range(60):
        print(f"tick {i}", file=sys.stderr, flush=True)
        time.sleep(0.05)
    with open(result_file, "w") as out:
        out.write("chatted")
elif word == "inspect":
    from minitools import Run

    async def tools():
        async with Run(os.getcwd(), questions=lambda card: {"skipped": True}, vibe={"fast": ["true"]}) as run:
            return [s.name for s in run.tools()]

    null = os.stat(os.devnull)
    stdin = os.fstat(0)
    report = {
        "cwd": os.getcwd(),
        "stdin_is_devnull": (stdin.st_rdev, stdin.st_ino) == (null.st_rdev, null.st_ino),
        "pgid": os.getpgid(0),
        "tools": asyncio.run(tools()),
    }
    with open(result_file, "w") as out:
        json.dump(report, out)
