#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of urcutorture's batches, reports, baselines and interrupts.

usage: check-batch.py URCUTORTURE CHECK [URCUTORTURE-REPORT]

CHECK is one of:
  scenario  every built-in scenario parses and --dry-run prints its plan;
            mode=all is every registered mode; the command line overrides a
            scenario; malformed scenario files give one line naming file,
            line and problem (exit 64, nothing run); a short real scenario
            gives one verdict and one JSON report; the progress line on a
            terminal, nothing extra on stdout with --tap
  report    urcutorture-report on a small real run: an HTML page whose
            figures exist and are non-empty PNGs and which lists every
            combination; --baseline adds the ratio table (77 when the
            report script cannot import matplotlib)
  compare   --compare passes against its own report and fails (exit 4) on a
            report edited to be 2x faster (saved reports: exact), and a real
            run fails against one edited to be 10x faster; another machine or
            other parameters only warn
  signal    SIGTERM / SIGINT give an INTERRUPTED report and exit 5 (errors
            found before the signal still make it FAILURE, exit 1); a stress
            run with --readers=0 says on stderr that it checks nothing
Output is TAP; exit status 0 when every check passed, 1 otherwise, 77 skipped.
"""
import base64
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

# utcheck.py lies next to this script (meson runs it from the build dir).
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utcheck  # noqa: E402
from utcheck import ok, run, last_line  # noqa: E402

REPORT = None

def write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


# ---- scenario ----

MALFORMED = [
    # (file text, line, words the message must contain)
    ("description x\nrun mode=stress\nfrobnicate 3\n", 3, ["unknown directive", "frobnicate"]),
    ("run mode=stress readers=lots\n", 1, ["--readers", "lots"]),
    ("# c\n\nrun mode=nap flavor=memb\n", 3, ["--mode", "nap"]),
    ("run mode=stress json=out.json\n", 1, ["json", "not allowed"]),
    ("run mode=stress seed=4\n", 1, ["seed", "not allowed"]),
    ("budget forever\nrun mode=stress\n", 1, ["budget", "forever"]),
    ("description nothing to do\n", 1, ["no run line"]),
    ("rotate\nrun mode=stress duration=1s\n", 1, ["rotate", "budget"]),
    ('run mode=stress flavor="memb\n', 1, ["unterminated"]),
    ("\nrun\n", 2, ["run", "no options"]),
    ("run mode=stress --=x\n", 1, ["not an option"]),
    ("run mode=stress call-rcu-layout=sideways\n", 1, ["--call-rcu-layout", "sideways"]),
    ("run mode=read-cost readers=0\n", 1, ["--readers"]),
    ("run mode=all async\n", 1, ["--async"]),
]


def check_scenario():
    rc, out, err = run(["--list-scenarios"], timeout=30)
    names = [l.split()[0] for l in out.splitlines() if l.strip()]
    ok(rc == 0 and {"smoke", "ci", "qualify", "soak"} <= set(names),
       "list-scenarios: the four built-ins (%s)" % ", ".join(names), out + err)
    rc, out, err = run(["--list-modes"], timeout=10)
    modes = out.split()
    for name in names:
        rc, out, err = run(["--scenario=" + name, "--dry-run"], timeout=60)
        m = re.search(r"^scenario %s: (\d+) runs?, (\d+) combinations, about (\S+)$" % name,
                      out, re.M)
        runs = re.findall(r"^run (\d+)/(\d+) \(([^:)]+):(\d+)[^)]*\): mode=(\S+)", out, re.M)
        ok(rc == 0 and m and "dry run: nothing was run" in out and err == "",
           "%s: --dry-run prints its plan" % name, out[-1500:] + err)
        ok(m and runs and int(m.group(1)) == len(runs) and
           all(r[2] == name + ".scn" for r in runs),
           "%s: one plan line per run, naming the scenario line" % name, out[-1500:])
        ok("placement plan for call_rcu layout" in out, "%s: placement plans printed" % name)
        if name in ("ci", "qualify"):
            ran = []
            for r in runs:
                if r[4] not in ran:
                    ran.append(r[4])
            ok(ran == modes, "%s: every registered mode (mode=all): %s" % (name, ", ".join(ran)),
               "modes: %s" % modes)
        if name == "smoke":
            secs = parse_span(m.group(3)) if m else 999
            ok(secs <= 30, "smoke: planned under 30 s (%s)" % (m.group(3) if m else "?"))
        if name == "ci":
            secs = parse_span(m.group(3)) if m else 999
            ok(secs <= 300, "ci: planned under 5 minutes (%s)" % (m.group(3) if m else "?"))
            ok(all("call-rcu-layout=default,per-cpu" in l or "call-rcu-layout=default " in l
                   for l in out.splitlines() if l.startswith("run ")),
               "ci: layouts default and per-cpu")
        if name == "qualify":
            secs = parse_span(m.group(3)) if m else 9999
            ok(secs <= 3600, "qualify: planned within an hour (%s)" % (m.group(3) if m else "?"))
            ok("pin-readers=compact" in out and "pin-readers=scatter" in out,
               "qualify: compact and scatter placement")
    # JSON of a dry run: the plan of every run.
    rc, out, err = run(["--scenario=ci", "--dry-run", "--json=-"], timeout=60)
    try:
        doc = json.loads(out)
        ok(doc["scenario"]["name"] == "ci" and len(doc["runs"]) >= len(modes) and
           doc["results"] == [] and doc["schema"] == "urcutorture/2",
           "ci --dry-run --json=-: scenario, runs, no result")
    except (ValueError, KeyError, TypeError) as e:
        ok(False, "ci --dry-run --json=-: JSON", str(e) + out[:500])
    # The command line overrides the scenario.
    rc, out, err = run(["--scenario=ci", "--flavor=qsbr", "--duration=2s", "--dry-run"],
                       timeout=60)
    lines = [l for l in out.splitlines() if l.startswith("run ")]
    ok(rc == 0 and lines and all(" flavor=qsbr " in l and " duration=2s " in l for l in lines),
       "ci --flavor=qsbr --duration=2s: every run takes the command line's values", out[-800:])

    with tempfile.TemporaryDirectory() as d:
        for i, (text, line, words) in enumerate(MALFORMED):
            path = write(d, "bad%d.scn" % i, text)
            jpath = os.path.join(d, "bad%d.json" % i)
            rc, out, err = run(["--scenario=" + path, "--json=" + jpath], timeout=30)
            lines = err.strip().splitlines()
            where = "%s:%d:" % (path, line)
            ok(rc == 64 and len(lines) == 1 and where in lines[0] and
               all(w in lines[0] for w in words),
               "malformed scenario %d: exit 64, one line '%s ... %s'" % (i, where, " ".join(words)),
               "rc=%d\n%s" % (rc, err))
            ok(out == "" and not os.path.exists(jpath), "malformed scenario %d: nothing run" % i,
               out[:300])
        rc, out, err = run(["--scenario=" + os.path.join(d, "missing.scn")], timeout=10)
        ok(rc == 64 and len(err.strip().splitlines()) == 1 and "--scenario" in err,
           "a missing scenario file: one line naming --scenario", err)

        # A scenario file of our own: mode=all is every registered mode.
        path = write(d, "all.scn", "# every mode once\nname everything\n"
                     "description all modes, quick\nrun mode=all flavor=memb duration=1s\n")
        rc, out, err = run(["--scenario=" + path, "--dry-run"], timeout=30)
        ran = re.findall(r"^run \d+/\d+ \(\S+\): mode=(\S+)", out, re.M)
        ok(rc == 0 and ran == modes, "mode=all: one run per registered mode", out[-800:] + err)

        # A real short scenario: one verdict, one JSON document.
        rc, out, err = run(["--scenario=smoke", "--duration=200ms", "--json=-"], timeout=60)
        ok(rc == 0, "smoke --duration=200ms: exit 0 (got %d)" % rc, err[-1500:])
        try:
            doc = json.loads(out)
            flavors = [r["flavor"] for r in doc["results"]]
            ok(doc["scenario"]["name"] == "smoke" and doc["verdict"] == "SUCCESS" and
               len(set(flavors)) == len(flavors) == doc["scenario"]["combinations"],
               "smoke: one JSON report, every flavor once (%s)" % ",".join(flavors))
            ok(all(r["gp_latency_ns"] and r["gp_latency_ns"]["buckets"] and
                   sum(b[2] for b in r["gp_latency_ns"]["buckets"]) == r["gp_latency_ns"]["count"]
                   for r in doc["results"]),
               "smoke: log-linear GP-latency buckets per combination, adding up to the count")
        except (ValueError, KeyError, TypeError) as e:
            ok(False, "smoke: JSON report", str(e) + out[:500])
        ends = [l for l in err.splitlines() if l.startswith("End of test:")]
        ok(len(ends) == 1 and ends[0].startswith("End of test: SUCCESS scenario=smoke"),
           "smoke: one verdict line", "\n".join(ends))

        # Progress on a terminal: stderr is a pty; stdout (TAP) gets nothing extra.
        check_progress(path)


def parse_span(text):
    m = re.match(r"^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$", text)
    if not m:
        return 10 ** 9
    h, mi, s = (int(x) if x else 0 for x in m.groups())
    return h * 3600 + mi * 60 + s


def check_progress(scn):
    master, slave = pty.openpty()
    p = subprocess.Popen(utcheck.command() + ["--scenario=" + scn, "--flavor=memb,qsbr", "--duration=700ms", "--tap",
                          "--mode=gp-latency"],
                         stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    err = b""
    out = p.stdout.read()
    deadline = time.time() + 60
    while time.time() < deadline:
        r, _, _ = select.select([master], [], [], 0.5)
        if not r:
            if p.poll() is not None:
                break
            continue
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    p.wait(timeout=60)
    os.close(master)
    text = err.decode(errors="replace")
    ok(re.search(r"\[1/\d+, \S+ left\]", text) is not None,
       "terminal: the progress line names the combination of how many and the time left",
       text[-600:])
    lines = out.decode(errors="replace").splitlines()
    bad = [l for l in lines if not (l.startswith("ok ") or l.startswith("not ok ") or
                                    l.startswith("#") or re.match(r"^1\.\.\d+$", l))]
    ok(p.returncode == 0 and lines and not bad, "terminal + --tap: stdout is TAP only",
       "\n".join(bad[:10]))


# ---- report ----

REPORT_SCN = """# two modes: GP latencies and callback latencies
description report check
run mode=gp-latency flavor=memb,qsbr duration=400ms
run mode=callback flavor=memb,qsbr call-rcu-layout=default,per-cpu duration=400ms
"""


def pngs(page):
    return re.findall(r'<img class="fig" alt="([^"]*)" src="data:image/png;base64,([^"]+)"', page)


def check_report():
    if not REPORT or not os.path.exists(REPORT):
        utcheck.skip_all("urcutorture-report not given")
    with tempfile.TemporaryDirectory() as d:
        scn = write(d, "report.scn", REPORT_SCN)
        rj = os.path.join(d, "r.json")
        rc, out, err = run(["--scenario=" + scn, "--quiet", "--json=" + rj], timeout=120)
        ok(rc == 0 and os.path.exists(rj), "a small real run (exit %d)" % rc, err[-800:])
        html_path = os.path.join(d, "page.html")
        p = subprocess.run([REPORT, rj, "-o", html_path], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=180)
        if p.returncode == 77:
            utcheck.skip_all(p.stderr.strip())
        ok(p.returncode == 0 and os.path.exists(html_path), "urcutorture-report: exit 0, page written",
           p.stderr)
        page = open(html_path).read() if os.path.exists(html_path) else ""
        figs = pngs(page)
        alts = [a for a, _ in figs]
        ok(any(a.startswith("GP latency") for a in alts), "page: GP-latency CDF figure", alts)
        ok(any(a.startswith("callback latency") for a in alts), "page: callback-latency CDF figure",
           alts)
        ok(any(a.startswith("throughput") for a in alts), "page: throughput figure", alts)
        good = 0
        for alt, b64 in figs:
            data = base64.b64decode(b64)
            good += data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 2000
        ok(figs and good == len(figs), "page: %d figures, every one a non-empty PNG" % len(figs))
        doc = json.load(open(rj))
        keys = [r["key"] for r in doc["results"]]
        import html as h
        missing = [k for k in keys if h.escape(k, quote=True) not in page]
        ok(len(keys) == 6 and not missing, "page: lists every combination (%d)" % len(keys), missing)
        summary = page.find("<p>%d combinations: " % len(keys))
        ok(0 <= summary < page.find("<details><summary>Every combination (%d)" % len(keys)),
           "page: a verdict summary, then every combination folded", page[:2000])
        for section in ["Verdicts", "Grace-period latency", "Callback latency", "Throughput",
                        "Per-worker callback breakdown", "Machine and placement"]:
            ok(section in page, "page: section %s" % section)
        ok("http://" not in page and "https://" not in page and "<script" not in page,
           "page: self-contained (no link, no script)")
        # Keep one figure for a person to look at (meson's log names it).
        keep = os.environ.get("UT_REPORT_KEEP")
        if keep and figs:
            with open(keep, "wb") as f:
                f.write(base64.b64decode(figs[0][1]))
        # --baseline: both on the same axes, and a ratio table (the GP-latency
        # combinations only, to keep the drawing short).
        small = dict(doc, results=[r for r in doc["results"] if r["mode"] == "gp-latency"])
        sj = write(d, "small.json", json.dumps(small))
        p2 = os.path.join(d, "base.html")
        p = subprocess.run([REPORT, "--baseline", sj, sj, "-o", p2], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=180)
        page2 = open(p2).read() if os.path.exists(p2) else ""
        ok(p.returncode == 0 and "Ratios against the baseline" in page2 and
           page2.count(">1.000<") >= len(small["results"]),
           "--baseline: ratio table (1.000 against itself)", p.stderr)
        ok(any(a.startswith("GP latency") and a.endswith("with baseline")
               for a, _ in pngs(page2)),
           "--baseline: baseline drawn on the same figures")
        p = subprocess.run([REPORT, os.path.join(d, "nope.json"), "-o", p2],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        ok(p.returncode == 1 and "nope.json" in p.stderr, "a missing report: exit 1 naming it",
           p.stderr)
        p = subprocess.run([REPORT, rj], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=60)
        ok(p.returncode == 64, "no -o: usage error 64 (got %d)" % p.returncode)


# ---- compare ----

COMPARE_SCN = """description compare check
run mode=gp-latency flavor=memb duration=600ms
run mode=callback flavor=memb rate=20000 duration=600ms
"""


def faster(doc, factor=2.0):
    """The same report, every figure `factor` times better."""
    d = json.loads(json.dumps(doc))
    for r in d["results"]:
        for k in ("reads_per_s", "updates_per_s"):
            if r.get(k):
                r[k] *= factor
        if r.get("ns_per_read"):
            r["ns_per_read"] /= factor
        r["grace_periods"] = r.get("grace_periods", 0) * factor
        cb = r.get("callbacks") or {}
        if cb.get("invoked_per_s"):
            cb["invoked_per_s"] *= factor
        for h in (r.get("gp_latency_ns"), cb.get("latency_ns")):
            if h:
                for q in ("min", "p50", "p90", "p99", "p99_9", "max", "mean"):
                    h[q] = h[q] / factor
    return d


def check_compare():
    with tempfile.TemporaryDirectory() as d:
        scn = write(d, "cmp.scn", COMPARE_SCN)
        rj = os.path.join(d, "r.json")
        rc, out, err = run(["--scenario=" + scn, "--quiet", "--json=" + rj], timeout=120)
        ok(rc == 0 and os.path.exists(rj), "baseline run (exit %d)" % rc, err[-800:])
        doc = json.load(open(rj))
        n = len(doc["results"])

        rc, out, err = run(["--compare=" + rj, "--from-report=" + rj], timeout=30)
        ok(rc == 0 and re.search(r"compare: index 1.00x \w+ over \d+ figures of %d combinations "
                                 r"\(threshold [\d.]+x\): ok" % n, out) and
           last_line(out).startswith("End of test: SUCCESS"),
           "--compare against its own report: exit 0, nothing regressed", out[-800:] + err)
        ok("warning" not in out + err, "its own report: no warning", out + err)

        fj = write(d, "fast.json", json.dumps(faster(doc)))
        rc, out, err = run(["--compare=" + fj, "--from-report=" + rj], timeout=30)
        ok(rc == 4 and "index 2.00x worse" in out and "REGRESSED" in out and
           last_line(out).startswith("End of test: REGRESSION"),
           "--compare against a 2x faster report: exit 4, REGRESSED (got %d)" % rc, out[-800:])

        # A real run (the compare path after running) against a 10x faster
        # baseline: with only 8 figures, a rerun's index alone moves up to
        # about 2x on a loaded 2-CPU machine, so 2x is checked above on saved
        # reports, where it is exact.
        tj = write(d, "fast10.json", json.dumps(faster(doc, 10.0)))
        rc, out, err = run(["--scenario=" + scn, "--compare=" + tj, "--regress-threshold=60%",
                            "--json=-", "--quiet"], timeout=120)
        try:
            new = json.loads(out)
            ok(rc == 4 and new["verdict"] == "REGRESSION" and new["exit_code"] == 4 and
               new["compare"]["regressed"] and new["compare"]["index"] > 1.6 and
               new["compare"]["threshold"] == 0.6,
               "a real run against the 10x faster report: exit 4, JSON verdict REGRESSION",
               "rc=%d %s" % (rc, err[-600:]))
            ok(len(new["compare"]["combinations"]) == n and
               all(c["baseline_found"] for c in new["compare"]["combinations"]),
               "every combination matched its baseline")
        except (ValueError, KeyError, TypeError) as e:
            ok(False, "a real run with --compare: JSON", str(e) + out[:400] + err[-400:])

        # Another machine, other parameters: a warning naming them, not a failure.
        other = json.loads(json.dumps(doc))
        other["system"]["cpu_model"] = "Imaginary CPU 9000"
        other["system"]["online_cpus"] = 512
        other["runs"][0]["parameters"]["readers"] = 77
        oj = write(d, "other.json", json.dumps(other))
        rc, out, err = run(["--compare=" + oj, "--from-report=" + rj], timeout=30)
        warns = [l for l in (out + err).splitlines() if "warning" in l]
        ok(rc == 0, "another machine and parameters: still exit 0 (got %d)" % rc, out + err)
        ok(any("cpu_model" in l and "Imaginary CPU 9000" in l and "online_cpus" in l
               for l in warns), "warning names the machine's differences", err)
        ok(any("parameters differ" in l and "readers 77" in l for l in warns),
           "warning names the parameter that differs", err)
        ok(sum("Imaginary CPU 9000" in l for l in warns) == 1,
           "each warning is printed once (the report, not also stderr)", out + err)

        # Two reports with nothing in common: no "ok", one line, exit 64.
        alien = json.loads(json.dumps(doc))
        for res in alien["results"]:
            res["key"] = "alien " + res["key"]
        aj = write(d, "alien.json", json.dumps(alien))
        rc, out, err = run(["--compare=" + aj, "--from-report=" + rj], timeout=30)
        ok(rc == 64 and "nothing compared" in out and ": ok" not in out and
           "has no combination to compare" in err,
           "--from-report with nothing in common: exit 64, no 'ok' (got %d)" % rc, out + err)

        # A threshold larger than the change hides it; a bad baseline is a usage error.
        rc, out, err = run(["--compare=" + fj, "--from-report=" + rj,
                            "--regress-threshold=1000%"], timeout=30)
        ok(rc == 0, "--regress-threshold=1000%%: a 2x change passes (got %d)" % rc, out[-400:])
        bad = write(d, "bad.json", "{ not json")
        rc, out, err = run(["--compare=" + bad, "--duration=1s"], timeout=30)
        ok(rc == 64 and len(err.strip().splitlines()) == 1 and "--compare" in err and out == "",
           "a baseline that is not JSON: exit 64, one line, nothing run", err)
        rc, out, err = run(["--regress-threshold=lots"], timeout=10)
        ok(rc == 64 and "--regress-threshold" in err, "--regress-threshold=lots: usage error", err)


# ---- signal ----

def interrupt(args, sig, wait_for, timeout=60):
    """Start urcutorture, wait for a line of stdout matching wait_for, send sig."""
    errf = tempfile.TemporaryFile(mode="w+")
    p = subprocess.Popen(utcheck.command() + args, stdout=subprocess.PIPE, stderr=errf,
                         stdin=subprocess.DEVNULL, text=True)
    out = []
    t0 = time.time()
    while time.time() - t0 < timeout:
        line = p.stdout.readline()
        if not line:
            break
        out.append(line)
        if re.search(wait_for, line):
            break
    sent = time.time()
    p.send_signal(sig)
    try:
        rest, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        rest, _ = p.communicate()
    errf.seek(0)
    return p.returncode, "".join(out) + rest, errf.read(), time.time() - sent


def check_signal():
    with tempfile.TemporaryDirectory() as d:
        jpath = os.path.join(d, "i.json")
        rc, out, err, took = interrupt(["--duration=60s", "--stat-interval=300ms",
                                        "--json=" + jpath], signal.SIGTERM, r"^\[")
        ok(rc == 5, "SIGTERM: exit 5 (got %d)" % rc, err[-500:])
        ok(took < 20, "SIGTERM: stopped promptly (%.1f s)" % took)
        ok(last_line(out).startswith("End of test: INTERRUPTED by SIGTERM after"),
           "SIGTERM: last line INTERRUPTED", last_line(out))
        ok(re.search(r"^--- memb/default \(stress, [\d.]+ s\): INTERRUPTED - interrupted by "
                     r"SIGTERM after [\d.]+ s of 1m$", out, re.M) is not None,
           "SIGTERM: the combination's table, marked with the time actually run", out[-1500:])
        try:
            doc = json.load(open(jpath))
            r = doc["results"][0]
            ok(doc["verdict"] == "INTERRUPTED" and doc["exit_code"] == 5 and
               doc["interrupted"]["signal"] == "SIGTERM" and r["seconds"] < 30 and
               r["reads"] > 0, "SIGTERM: JSON report INTERRUPTED with the counts reached",
               json.dumps(doc.get("interrupted")))
        except (OSError, ValueError, KeyError, IndexError) as e:
            ok(False, "SIGTERM: JSON report", e)

        # Errors found before the signal still make it a FAILURE.
        rc, out, err, took = interrupt(["--flavor=busted", "--duration=60s",
                                        "--stat-interval=300ms"], signal.SIGINT, r"^!!! \[")
        ok(rc == 1 and re.match(r"End of test: FAILURE \(INTERRUPTED by SIGINT after",
                                last_line(out)),
           "SIGINT on busted: FAILURE, exit 1 (got %d)" % rc, last_line(out))

        # In a scenario: the rest is not run; the report covers what ran.
        spath = os.path.join(d, "s.json")
        rc, out, err, took = interrupt(["--scenario=smoke", "--duration=30s", "--json=" + spath,
                                        "--stat-interval=300ms"], signal.SIGTERM, r"^\[")
        try:
            doc = json.load(open(spath))
            ok(rc == 5 and len(doc["results"]) == 1 and
               doc["interrupted"]["combinations_planned"] == 5 and
               "combinations=1 of 5" in last_line(out),
               "SIGTERM in a scenario: one combination of five reported, exit 5",
               "rc=%d %s" % (rc, last_line(out)))
        except (OSError, ValueError, KeyError, TypeError) as e:
            ok(False, "SIGTERM in a scenario: JSON", str(e) + out[-300:])

    rc, out, err = run(["--readers=0", "--duration=300ms", "--quiet"], timeout=30)
    ok(rc == 0 and "--readers=0" in err and "checks no grace period" in err,
       "stress --readers=0: says on stderr that it checks no grace period", err)
    rc, out, err = run(["--readers=0", "--duration=300ms", "--quiet", "--mode=gp-latency"],
                       timeout=30)
    ok("--readers=0" not in err, "gp-latency --readers=0: no such warning", err)


def main():
    global REPORT
    REPORT = sys.argv[3] if len(sys.argv) > 3 else None
    return utcheck.main(__doc__, {"scenario": check_scenario, "report": check_report,
                                  "compare": check_compare, "signal": check_signal})


if __name__ == "__main__":
    sys.exit(main())
