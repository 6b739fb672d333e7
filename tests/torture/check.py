#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks of urcutorture's contract (docs/TORTURE.md), run by meson.

usage: check.py URCUTORTURE CHECK [ARG]

Each check runs the tool and asserts what the spec promises: exit codes,
the last line, the JSON schema, TAP, one-line usage errors.  Output is TAP;
exit status 0 when every check passed, 1 otherwise, 77 when skipped.
These are short runs meant for CI, not benchmarks.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# utcheck.py lies next to this script (meson runs it from the build dir).
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import utcheck  # noqa: E402
from utcheck import ok, run, last_line  # noqa: E402


def check_flavor(flavor, extra=()):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        rc, out, err = run(["--flavor=" + flavor, "--duration=2s", "--stat-interval=1s",
                            "--json=" + path] + list(extra))
        doc = None
        if rc in (0, 1) and os.path.exists(path):
            with open(path) as f:
                try:
                    doc = json.load(f)
                except ValueError:
                    pass
    if rc == 77:
        utcheck.skip_all("flavor %s not built" % flavor)
    ok(rc == 0, "%s: exit 0 (got %d)" % (flavor, rc), out + err)
    ok(last_line(out).startswith("End of test: SUCCESS"), "%s: last line SUCCESS" % flavor,
       last_line(out))
    ok("seed=" in out.splitlines()[0] if out else False, "%s: start line has the seed" % flavor, out)
    ok(any(l.lstrip("! ").startswith("[") for l in out.splitlines()),
       "%s: periodic stat line" % flavor, out)
    check_stress_coverage(flavor, doc)


def check_stress_coverage(flavor, doc):
    """The default stress run exercised nesting, churn, qsbr's offline
    periods, call_rcu and cookies inside readers, and checked every
    retirement path exactly (docs/TORTURE.md, "Detection rules")."""
    try:
        r = doc["results"][0]
        st = r["stress"]
    except (TypeError, KeyError, IndexError):
        ok(False, "%s: JSON report with the stress figures" % flavor, str(doc)[:500])
        return
    depth = st.get("nesting_depth", [])
    ok(len(depth) == 3 and all(n > 0 for n in depth),
       "%s: readers nested 1, 2 and 3 deep %s" % (flavor, depth))
    ok(st.get("reader_call_rcu", 0) > 0 and st.get("reader_polls", 0) > 0,
       "%s: call_rcu (%d) and cookies (%d) inside readers"
       % (flavor, st.get("reader_call_rcu", 0), st.get("reader_polls", 0)))
    ok(st.get("churn_threads", 0) > 0, "%s: churn threads started (%d)"
       % (flavor, st.get("churn_threads", 0)))
    ok(st.get("churn_errors", -1) == 0, "%s: churn_errors reported, none (%s)"
       % (flavor, st.get("churn_errors")))
    for path in ["sync", "call_rcu", "defer", "poll"]:
        n = st.get("exact_checks", {}).get(path, 0)
        ok(n > 0, "%s: exact checks of the %s path (%d held objects found retired)"
           % (flavor, path, n), st)
        ok(st["retired"].get(path) == st["freed"].get(path),
           "%s: every object retired by %s was freed" % (flavor, path), st)
    if flavor == "qsbr":
        ok(st.get("quiescent_states", 0) > 0 and st.get("offline_short", 0) > 0
           and st.get("offline_long", 0) > 0,
           "qsbr: quiescent states (%d), short (%d) and long (%d) offline periods"
           % (st.get("quiescent_states", 0), st.get("offline_short", 0),
              st.get("offline_long", 0)))
    check_implicit_coverage(flavor, r, st)


def check_implicit_coverage(flavor, r, st):
    """memb, mb, signal: churn threads read without registering,
    unregistered inside sections and read in their exit destructors, and the
    library counted at least the misuse events they caused (docs/TORTURE.md,
    "Implicit registration"); qsbr and bp have none of it."""
    imp = st.get("implicit")
    g = r.get("gp_stats") or {}
    caused = (g.get("urcutorture") or {}).get("misuse_caused")
    if flavor not in ("memb", "mb", "signal"):
        ok(imp is None and caused == 0, "%s: no implicit registration (%s, caused %s)"
           % (flavor, imp, caused))
        return
    ok(isinstance(imp, dict) and all(imp.get(k, 0) > 0 for k in
                                     ("registrations", "unregisters_in_section",
                                      "exit_destructor_sections")),
       "%s: churn threads registered by read_lock, unregistered in sections, read at exit (%s)"
       % (flavor, imp))
    if isinstance(imp, dict):
        ok(caused == imp.get("registrations", 0) + imp.get("unregisters_in_section", 0),
           "%s: misuse_caused %s = registrations + unregistrations in sections" % (flavor, caused),
           g.get("urcutorture"))
    checks = {c.get("name"): c for c in g.get("checks", [])}
    ok(checks.get("misuse_events", {}).get("ok") is True
       and g.get("misuse_events", 0) >= (caused or 0) > 0,
       "%s: the library counted the misuse events (%s >= %s)"
       % (flavor, g.get("misuse_events"), caused), checks.get("misuse_events"))


def check_busted():
    # Every time: the detectors must catch the broken flavor.
    rc, out, err = run(["--flavor=busted", "--duration=2s", "--json=-"])
    ok(rc == 1, "busted: exit 1 (got %d)" % rc, err)
    ok(last_line(err).startswith("End of test: FAILURE"), "busted: last line FAILURE",
       last_line(err))
    try:
        doc = json.loads(out)
    except ValueError as e:
        ok(False, "busted: JSON parses", e)
        return
    res = doc["results"][0]
    errs = res["errors"]
    early = {k: v for k, v in errs.items() if k.startswith("early_free_")}
    ok(sum(early.values()) > 0, "busted: exact detector fired %s" % early, errs)
    ok(res["verdict"] == "FAILURE" and doc["verdict"] == "FAILURE" and doc["exit_code"] == 1,
       "busted: JSON verdict FAILURE")
    ok("!!!" in err, "busted: error marker !!! in the report")
    # One guarantee broken by one step, which the old pipeline-age rule
    # (age >= 2 seen by a reader) let through: the exact checks name it.
    check_busted_exact("busted-defer", "early_free_defer")
    check_busted_exact("busted-early", "early_free_sync")


def check_busted_exact(flavor, error):
    rc, out, err = run(["--flavor=" + flavor, "--duration=2s", "--stat-interval=0", "--json=-"])
    ok(rc == 1, "%s: exit 1 (got %d)" % (flavor, rc), err)
    ok(last_line(err).startswith("End of test: FAILURE"), "%s: last line FAILURE" % flavor,
       last_line(err))
    try:
        errs = json.loads(out)["results"][0]["errors"]
    except (ValueError, KeyError, IndexError) as e:
        ok(False, "%s: JSON report" % flavor, str(e) + out[:500])
        return
    ok(errs.get(error, 0) > 0, "%s: %s=%d" % (flavor, error, errs.get(error, 0)), errs)
    ok(re.search(r"!!! .*\b%s=[1-9]" % error, err) is not None,
       "%s: the report's error line names %s" % (flavor, error), err)


def check_stall():
    # A grace period that never ends must become a report and exit 2,
    # well before --duration.
    rc, out, err = run(["--flavor=busted-hang", "--stall-timeout=1s", "--duration=30s",
                        "--stat-interval=0", "--json=-"], timeout=25)
    ok(rc == 2, "stall: exit 2 (got %d)" % rc, err)
    ok(last_line(err).startswith("End of test: STALL"), "stall: last line STALL", last_line(err))
    ok("synchronize_rcu" in err or "rcu_barrier" in err, "stall: thread states reported", err)
    try:
        doc = json.loads(out)
        ok(doc["verdict"] == "STALL" and doc["exit_code"] == 2, "stall: JSON verdict STALL")
    except (ValueError, KeyError) as e:
        ok(False, "stall: JSON report", str(e) + out[:500])
    check_stall_short()
    check_stall_end_phase()
    check_stall_exit()


def check_stall_end_phase():
    # A hang in a combination's end (here the mode's finish, through the
    # test hook URCUTORTURE_TEST_HANG) must still end in STALL within the
    # stall timeout, naming the controller's step.
    end_phase_case("URCUTORTURE_TEST_HANG", "judge: the mode's finish", "end-phase hang",
                   "the controller in judge: the mode's finish")
    # A step of the end phase that never ends while its counters move (a
    # drain whose barriers return but whose callbacks never all run): the
    # end phase's bound, one stall timeout per step, turns it into STALL.
    end_phase_case("URCUTORTURE_TEST_LIVELOCK", "stop: draining the callbacks",
                   "end-phase livelock",
                   "the end phase did not finish: the controller in stop: draining the callbacks")


def check_stall_exit():
    # A hang in the process's exit, after the report (an atexit handler
    # that never returns, through the test hook): one STALL line on stderr
    # and exit 2 within the stall timeout; the report before it stands.
    os.environ["URCUTORTURE_TEST_HANG"] = "process exit"
    try:
        t0 = time.monotonic()
        rc, out, err = run(["--duration=1s", "--stall-timeout=1s", "--stat-interval=0"], timeout=30)
        took = time.monotonic() - t0
    finally:
        del os.environ["URCUTORTURE_TEST_HANG"]
    ok(rc == 2 and last_line(out).startswith("End of test: SUCCESS"),
       "exit hang: exit 2 after the report (got %d)" % rc, out + err)
    ok("!!! STALL: the process did not exit within" in err and took < 20,
       "exit hang: the STALL line names the exit, within %.1f s" % took, err)


def end_phase_case(hook, step, what, reason):
    """A 1-second hash run with test hook HOOK=STEP: STALL naming REASON within 20 s."""
    os.environ[hook] = step
    try:
        t0 = time.monotonic()
        rc, out, err = run(["--mode=hash", "--duration=1s", "--stall-timeout=1s",
                            "--stat-interval=0"], timeout=30)
        took = time.monotonic() - t0
    finally:
        del os.environ[hook]
    ok(rc == 2 and last_line(out).startswith("End of test: STALL"),
       "%s: exit 2, last line STALL (got %d)" % (what, rc), out + err)
    ok(reason in out and took < 20,
       "%s: the report names the controller's step, within %.1f s" % (what, took), out)


def start_param(text, name):
    """The value of NAME=... on the start line (the first line of TEXT)."""
    first = text.splitlines()[0] if text else ""
    m = re.search(r"(?:^|\s)%s=(\S+)" % re.escape(name), first)
    return m.group(1) if m else None


def check_stall_short():
    # Grace periods that stop ~1 s into a 3-second run and only complete
    # once the run stops (busted-freeze): without --stall-timeout the derived
    # timeout (duration/4, at least 6 s) must still turn this into STALL,
    # exit 2, within the duration + 10 s, although teardown would let the
    # waits finish (the waits pending at the end are followed to 6 s).
    t0 = time.monotonic()
    try:
        rc, out, err = run(["--flavor=busted-freeze", "--duration=3s", "--stat-interval=0",
                            "--json=-"], timeout=13)
    except subprocess.TimeoutExpired:
        ok(False, "freeze: exit within 13 s")
        return
    took = time.monotonic() - t0
    ok(rc == 2, "freeze: exit 2 (got %d)" % rc, err)
    ok(took < 13, "freeze: exit within 13 s (took %.1f s)" % took)
    ok(last_line(err).startswith("End of test: STALL"), "freeze: last line STALL", last_line(err))
    ok(re.search(r"!!! STALL: .*(synchronize_rcu|rcu_barrier|polled cookie)", err) is not None,
       "freeze: the report names the grace-period wait", err)
    ok(start_param(err, "stall-timeout") == "6s",
       "freeze: derived stall-timeout=6s on the parameters line (got %s)"
       % start_param(err, "stall-timeout"), err.splitlines()[0] if err else "")
    try:
        doc = json.loads(out)
        ok(doc["verdict"] == "STALL" and doc["exit_code"] == 2, "freeze: JSON verdict STALL")
        ok(doc["parameters"]["stall_timeout_ns"] == 6000000000,
           "freeze: JSON stall_timeout_ns is the derived 6 s (got %s)"
           % doc["parameters"]["stall_timeout_ns"])
    except (ValueError, KeyError, TypeError) as e:
        ok(False, "freeze: JSON report", str(e) + out[:500])

    # The derivation (dry runs): duration/4 within 6 s..10 s, read and update
    # delays on top, an explicit --stall-timeout untouched.
    for args, want in [(["--duration=1s"], "6s"), (["--duration=32s"], "8s"),
                       (["--duration=1h"], "10s"), (["--duration=3s", "--read-delay=1s"], "10s"),
                       (["--duration=3s", "--update-delay=500ms"], "7s"),
                       (["--duration=3s", "--stall-timeout=7s"], "7s")]:
        rc, out, err = run(args + ["--dry-run"], timeout=10)
        got = start_param(out, "stall-timeout")
        ok(rc == 0 and got == want, "%s: stall-timeout=%s (got %s)" % (" ".join(args), want, got),
           out + err)

    # A real flavor, same length, same derived timeout: no false stall.
    rc, out, err = run(["--flavor=memb", "--duration=3s", "--stat-interval=0"], timeout=30)
    ok(rc == 0, "memb 3s with the derived timeout: exit 0 (got %d)" % rc, out + err)
    ok(last_line(out).startswith("End of test: SUCCESS"), "memb 3s: last line SUCCESS",
       last_line(out))
    ok(start_param(out, "stall-timeout") == "6s",
       "memb 3s: derived stall-timeout=6s on the parameters line (got %s)"
       % start_param(out, "stall-timeout"), out.splitlines()[0] if out else "")


BAD_INPUTS = [
    (["--no-such-option"], "--no-such-option"),
    (["--readers=-1"], "--readers"),
    (["--readers=2x"], "--readers"),
    (["--duration=abc"], "--duration"),
    (["--duration=-5s"], "--duration"),
    (["--stat-interval=1parsec"], "--stat-interval"),
    (["--flavor=nope"], "--flavor"),
    (["--call-rcu-layout=sideways"], "--call-rcu-layout"),
    (["--mode=nap"], "--mode"),
    (["--pin-readers=list:999"], "--pin-readers"),
    (["--pin-workers=bogus"], "--pin-workers"),
    (["--json=/nonexistent/dir/x.json"], "--json"),
    (["--seed=12ab"], "--seed"),
    (["--rate=fast"], "--rate"),
    (["--pipe-len=1"], "--pipe-len"),
    (["--async"], "--async"),
    (["--readers"], "--readers"),
    (["stray-argument"], "stray-argument"),
    (["--stuck-for=1s"], "--stuck-for"),
    (["--mode=stall", "--stuck-for=0"], "--stuck-for"),
    (["--lib-stall-timeout=soon"], "--lib-stall-timeout"),
    (["--help=foo"], "--help: takes no value"),
    (["--dry-run", "--topology=synthetic:pack:99999999 pu:1"], "more than 65536 PUs"),
    (["--scenario=ci", "--scenario=smoke"], "--scenario: given twice ('ci', then 'smoke')"),
    (["--readers=2", "--readers=3"], "--readers: given twice"),
    (["--dry-run", "--compare=old.json"], "--dry-run: cannot be combined with --compare"),
    (["--list-scenarios", "--scenario=ci"], "--list-scenarios: cannot be combined with --scenario"),
    (["--structures=lfstack"], "--structures: only meaningful with --mode=queue"),
]


def check_bad_input():
    for args, name in BAD_INPUTS:
        rc, out, err = run(args, timeout=30)
        lines = err.strip().splitlines()
        ok(rc == 64, "%s: exit 64 (got %d)" % (" ".join(args), rc), err)
        ok(len(lines) == 1 and name in lines[0],
           "%s: one stderr line naming %s" % (" ".join(args), name), err)
        ok(out == "", "%s: nothing run (stdout empty)" % " ".join(args), out)
    # The same option twice with the same value: one warning, the run goes on.
    rc, out, err = run(["--dry-run", "--quiet", "--quiet", "--quiet"], timeout=30)
    ok(rc == 0 and err.count("warning: --quiet given twice") == 1,
       "--quiet three times: one warning, exit 0", err)


def check_json():
    rc, out, err = run(["--duration=1s", "--stat-interval=0", "--json=-",
                        "--flavor=memb,qsbr", "--call-rcu-layout=default,per-cpu"])
    ok(rc == 0, "json: exit 0 (got %d)" % rc, err)
    try:
        doc = json.loads(out)
    except ValueError as e:
        ok(False, "json: stdout is one JSON document", str(e) + "\n" + out[:2000])
        return
    ok(True, "json: stdout is one JSON document")
    ok(doc.get("schema") == "urcutorture/2", "json: schema urcutorture/2")
    reads_lines = re.findall(r"^  reads  .*$", err, re.M)
    ok(len(reads_lines) == 4 and all("sections/s per reader, read-delay=random)" in x and
                                     "ns/read" not in x for x in reads_lines),
       "json: the human reads lines give sections/s per reader and the read delay, no ns/read",
       "\n".join(reads_lines))
    for key in ["tool", "library", "command_line", "seed", "parameters", "system",
                "results", "verdict", "exit_code"]:
        ok(key in doc, "json: top-level field %s" % key)
    params = doc.get("parameters", {})
    for key, v in [("fake_updaters", 1), ("pipe_len", 10), ("update_delay_ns", 0), ("async", False),
                   ("runs", 5), ("rate", 0), ("launder", 3), ("batch", 100)]:
        ok(key in params and params[key] == v, "json: parameters.%s (a mode's option) = %r" % (key, v),
           params)
    ok(params.get("lib_stall_timeout_ns", 0) is None and params.get("stuck_for_ns") == 0,
       "json: parameters.lib_stall_timeout_ns (null: the library's default) and stuck_for_ns",
       params)
    system = doc.get("system", {})
    for key in ["kernel", "cpu_model", "topology_summary", "membarrier", "online_cpus",
                "placement_backend"]:
        ok(key in system, "json: system.%s" % key)
    ok(isinstance(doc.get("seed"), int), "json: numeric seed")
    ok(doc.get("command_line", [None])[1:] == ["--duration=1s", "--stat-interval=0", "--json=-",
                                               "--flavor=memb,qsbr",
                                               "--call-rcu-layout=default,per-cpu"],
       "json: command line recorded")
    results = doc.get("results", [])
    ok(len(results) == 4, "json: one result per flavor x layout (got %d)" % len(results))
    for r in results:
        tag = "%s/%s" % (r.get("flavor"), r.get("layout"))
        for key in ["reads_per_s", "ns_per_read", "updates_per_s", "gp_latency_ns", "callbacks",
                    "errors", "verdict", "pipe_histogram"]:
            ok(key in r, "json: %s has %s" % (tag, key))
        # Wall time per read would only be the read delay: stress gives
        # sections per second per reader instead, and no ns_per_read.
        ok(r.get("ns_per_read", 0) is None and (r.get("reads_per_s_per_reader") or 0) > 0,
           "json: %s ns_per_read null (stress measures no cost of a read), "
           "reads_per_s_per_reader" % tag, r.get("ns_per_read"))
        gp = r.get("gp_latency_ns") or {}
        for key in ["min", "p50", "p90", "p99", "p99_9", "max", "histogram_log2"]:
            ok(key in gp, "json: %s gp_latency_ns.%s" % (tag, key))
        if gp:
            ok(gp["min"] <= gp["p50"] <= gp["p90"] <= gp["p99"] <= gp["p99_9"] <= gp["max"],
               "json: %s GP percentiles ordered" % tag, gp)
            ok(sum(b["count"] for b in gp["histogram_log2"]) == gp["count"],
               "json: %s histogram sums to the count" % tag)
        cb = r.get("callbacks", {})
        ok(cb.get("posted") == cb.get("invoked") and cb.get("posted", 0) > 0,
           "json: %s every callback invoked" % tag, cb)
        for key in ["latency_ns", "max_backlog", "workers"]:
            ok(key in cb, "json: %s callbacks.%s" % (tag, key))
        if r.get("layout") == "per-cpu":
            ws = [w for w in cb.get("workers", []) if w["label"].startswith("cpu")]
            ok(len(ws) >= 1, "json: %s per-worker breakdown" % tag, cb.get("workers"))
            for w in ws:
                for key in ["invoked", "grace_periods", "max_backlog", "latency_p50_ns",
                            "latency_p99_ns", "cpu_affinity"]:
                    ok(key in w, "json: %s worker %s has %s" % (tag, w["label"], key))
        threads = (r.get("placement") or {}).get("threads", [])
        ok(len(threads) >= 3 and all("cpu_planned" in t and "cpu_at_end" in t for t in threads),
           "json: %s per-thread placement" % tag, r.get("placement"))
        ok(all(isinstance(t.get("tid"), int) and t["tid"] > 0 for t in threads),
           "json: %s each thread's kernel tid" % tag, threads)
        check_gp_stats_json(tag, r)
        ok(r.get("verdict") == "SUCCESS", "json: %s verdict SUCCESS" % tag, r.get("errors"))
    ok(doc.get("verdict") == "SUCCESS" and doc.get("exit_code") == 0, "json: overall verdict")
    ok(last_line(err).startswith("End of test: SUCCESS"), "json: human report moved to stderr",
       last_line(err))
    # --json=FILE writes the same document to a file.
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "r.json")
        rc, out, err = run(["--duration=500ms", "--json=" + path, "--quiet"])
        ok(rc == 0 and os.path.exists(path), "json: --json=FILE written")
        if os.path.exists(path):
            with open(path) as f:
                ok(json.load(f).get("schema") == "urcutorture/2", "json: file parses")


GP_STATS_KEYS = ["completed", "wait_ns_total", "stalls_reported", "misuse_events", "wait_ns_max",
                 "waiters", "current_age_ns", "holdouts", "histogram_log2", "at_stall", "settled",
                 "urcutorture", "checks"]


def check_gp_stats_json(tag, r):
    """A result's grace-period statistics and stall reports (docs/TORTURE.md,
    "The library's view"): present, consistent, every check passed."""
    g = r.get("gp_stats")
    ok(isinstance(g, dict), "json: %s gp_stats" % tag, str(r)[:300])
    if not isinstance(g, dict):
        return
    ok(all(k in g for k in GP_STATS_KEYS), "json: %s gp_stats has %s" % (tag, ", ".join(GP_STATS_KEYS)),
       sorted(g))
    ok("errors" in r and r["errors"].get("gp_stats_mismatch") == 0,
       "json: %s errors.gp_stats_mismatch = 0" % tag, r.get("errors"))
    seen = (g.get("urcutorture") or {}).get("grace_periods_seen", -1)
    ok(0 < seen <= g.get("completed", 0),
       "json: %s urcutorture saw %s grace periods end <= completed %s"
       % (tag, seen, g.get("completed")), g.get("urcutorture"))
    hist = g.get("histogram_log2", [])
    ok(sum(b["count"] for b in hist) == g.get("completed") or not g.get("settled"),
       "json: %s gp_stats histogram adds up to completed" % tag, hist)
    checks = g.get("checks", [])
    ok({c.get("name") for c in checks} >= {"completed", "stall_reports"} and
       all(c.get("ok") is True and c.get("detail") for c in checks),
       "json: %s gp_stats checks (%s) all ok" % (tag, ", ".join(c.get("name", "?") for c in checks)),
       checks)
    ok(r.get("library_stall_reports") == [] and r.get("library_stall_reports_total") == 0,
       "json: %s library_stall_reports: none at the library's default timeout" % tag,
       str(r.get("library_stall_reports"))[:300])


def stall_what(flavor):
    """What the library's stall report says the stall mode's stuck reader does."""
    if flavor == "qsbr":
        return "online with no quiescent state"
    if flavor == "bp":
        return "registered (bp) and inside a read-side critical section at nesting depth 2"
    return "inside a read-side critical section at nesting depth 2"


def stuck_tid(r):
    ts = [t for t in (r.get("placement") or {}).get("threads", []) if t.get("role") == "stuck"]
    return ts[0].get("tid") if len(ts) == 1 else None


def check_stall_lib(flavor):
    # The stall mode: a reader stuck for 600 ms against a library stall
    # timeout of 250 ms.  The library must report within the episode,
    # before urcutorture's own watchdog (8 s here), naming the stuck
    # thread by its kernel tid and name with what it does, then say that
    # the stall ended; its statistics must agree with urcutorture's.
    rc, out, err = run(["--mode=stall", "--flavor=" + flavor, "--duration=500ms", "--stuck-for=600ms",
                        "--stat-interval=0", "--json=-"], timeout=60)
    if rc == 77:
        utcheck.skip_all("flavor %s not built" % flavor)
    ok(rc == 0, "%s: stall mode exit 0 (got %d)" % (flavor, rc), err)
    ok(last_line(err).startswith("End of test: SUCCESS"), "%s: last line SUCCESS" % flavor,
       last_line(err))
    try:
        doc = json.loads(out)
        r = doc["results"][0]
        st = r["stall"]
    except (ValueError, KeyError, IndexError) as e:
        ok(False, "%s: JSON report with the stall figures" % flavor, str(e) + out[:500])
        return
    ok(st["checked"] and st["episodes"] >= 1 and st["stalled_episodes"] == st["episodes"],
       "%s: every episode reported by the library (%d of %d)"
       % (flavor, st["stalled_episodes"], st["episodes"]), st)
    ok(st["reports"] >= 1 and st["reports_naming_stuck"] == st["reports"] and
       st["ended_lines"] == st["stalled_episodes"],
       "%s: %d reports, all naming the stuck reader, one \"ended\" line per stall" %
       (flavor, st["reports"]), st)
    ok(st["midstall_checked"] >= 1, "%s: statistics read mid-stall and checked" % flavor, st)
    tid = stuck_tid(r)
    ok(tid and tid == st["stuck_tid"], "%s: the stuck reader's tid %s in placement.threads" %
       (flavor, tid), r.get("placement"))
    reps = r.get("library_stall_reports") or []
    stalls = [x for x in reps if x["kind"] == "report"]
    ended = [x for x in reps if x["kind"] == "ended"]
    ok(len(stalls) == st["reports"] and len(ended) == st["ended_lines"],
       "%s: library_stall_reports: %d reports, %d ended lines" % (flavor, len(stalls), len(ended)),
       reps)
    if stalls:
        first = stalls[0]
        h = first["holdouts"]
        ok(len(h) == 1 and h[0]["tid"] == tid and h[0]["name"] == "ut-stuck" and
           h[0]["what"] == stall_what(flavor) and h[0]["thread"] == "stuck 0",
           "%s: the first report names tid %s \"ut-stuck\" (stuck 0): %s"
           % (flavor, tid, stall_what(flavor)), h)
        lines = first["text"].splitlines()
        ok(lines and lines[0].startswith("urcu: stall: urcu_%s grace period " % flavor) and
           any(l.startswith('urcu: stall:   tid %d "ut-stuck": ' % tid) for l in lines) and
           any("call_rcu backlog" in l for l in lines),
           "%s: report text: flavor, tid, name, call_rcu backlog" % flavor, first["text"])
        wd = doc["parameters"]["stall_timeout_ns"] / 1e9
        ok(st["first_report_min_ns"] >= 250000000 and st["first_report_max_ns"] / 1e9 < wd,
           "%s: first report %.3f s after the call: not before the library's 0.25 s, before "
           "urcutorture's watchdog (%.1f s)" % (flavor, st["first_report_max_ns"] / 1e9, wd), st)
        ok(ended and ended[0]["text"].startswith("urcu: stall ended: urcu_%s grace period %d ended after "
                                                 % (flavor, first["grace_period"])),
           "%s: \"stall ended\" line for grace period %d" % (flavor, first["grace_period"]), ended)
        ok('    | urcu: stall:   tid %d "ut-stuck": ' % tid in err and
           "    tid %d is urcutorture's stuck 0" % tid in err,
           "%s: the human report quotes the report and names the thread" % flavor, err[-1500:])
    g = r.get("gp_stats") or {}
    ok(g.get("stalls_reported") == st["reports"] and g.get("wait_ns_max", 0) >= 300000000 and
       all(c["ok"] for c in g.get("checks", [])) and len(g.get("checks", [])) >= 3,
       "%s: gp_stats: stalls_reported %s, wait_ns_max %.3f s, checks ok" %
       (flavor, g.get("stalls_reported"), g.get("wait_ns_max", 0) / 1e9), g)

    # Must fail: with the library's stall timeout at 0 it reports nothing,
    # and the stall mode says so (exit 1, lib_stall_missed).
    rc, out, err = run(["--mode=stall", "--flavor=" + flavor, "--duration=500ms", "--stuck-for=600ms",
                        "--lib-stall-timeout=0", "--stat-interval=0", "--json=-"], timeout=60)
    try:
        r = json.loads(out)["results"][0]
    except (ValueError, KeyError, IndexError) as e:
        ok(False, "%s: timeout 0: JSON report" % flavor, str(e) + out[:500])
        return
    ok(rc == 1 and r["verdict"] == "FAILURE" and r["errors"].get("lib_stall_missed", 0) >= 1,
       "%s: library stall timeout 0: FAILURE, exit 1, lib_stall_missed (got %d, %s)"
       % (flavor, rc, r["errors"].get("lib_stall_missed")), err[-1500:])
    ok(re.search(r"^!!! stall: episode 1: synchronize_rcu waited [\d.]+ s on the stuck reader, "
                 r"the library reported nothing", err, re.M) is not None,
       "%s: timeout 0: the report says the library reported nothing" % flavor, err[-1500:])


def check_gp_stats():
    # busted-stats: real grace periods, statistics that never count them.
    # The gp-stats checks must FAIL it (exit 1, gp_stats_mismatch), naming
    # the check, in a stress run and in the stall mode.
    for args, want in [([], ["completed"]), (["--mode=stall", "--stuck-for=600ms"],
                                              ["completed", "wait_ns_max"])]:
        tag = " ".join(["busted-stats"] + args)
        rc, out, err = run(["--flavor=busted-stats", "--duration=500ms", "--stat-interval=0",
                            "--json=-"] + args, timeout=60)
        if rc == 77:
            ok(True, "%s: # SKIP busted-stats not built (no statistics)" % tag)
            continue
        try:
            r = json.loads(out)["results"][0]
        except (ValueError, KeyError, IndexError) as e:
            ok(False, "%s: JSON report" % tag, str(e) + out[:500])
            continue
        failed = [c["name"] for c in r["gp_stats"]["checks"] if not c["ok"]]
        ok(rc == 1 and r["verdict"] == "FAILURE" and r["errors"]["gp_stats_mismatch"] == len(failed)
           and set(want) <= set(failed), "%s: FAILURE, exit 1, gp_stats_mismatch=%d (%s)"
           % (tag, len(failed), ", ".join(failed)), err[-1500:])
        ok(all(re.search(r"^!!! gp-stats: %s: " % n, err, re.M) for n in want) and
           "gp-stats: completed check failed" in r.get("note", ""),
           "%s: '!!! gp-stats: NAME: ...' lines and the note" % tag, err[-1500:])

    # busted-stats-double: each grace period counted twice; only the upper
    # bound (completed_max, live and at the end) can catch it.
    tag = "busted-stats-double"
    rc, out, err = run(["--flavor=busted-stats-double", "--duration=500ms", "--stat-interval=0",
                        "--json=-"], timeout=60)
    if rc == 77:
        ok(True, "%s: # SKIP not built (no statistics or no global word)" % tag)
    else:
        try:
            r = json.loads(out)["results"][0]
            failed = [c["name"] for c in r["gp_stats"]["checks"] if not c["ok"]]
        except (ValueError, KeyError, IndexError, TypeError) as e:
            r, failed = {}, []
            err += str(e) + out[:500]
        ok(rc == 1 and r.get("verdict") == "FAILURE" and
           r.get("errors", {}).get("gp_stats_mismatch") == len(failed) and
           {"completed_max_live", "completed_max"} & set(failed) and
           re.search(r"^!!! gp-stats: completed_max", err, re.M),
           "%s: FAILURE, exit 1, gp_stats_mismatch=%d (%s)" % (tag, len(failed), ", ".join(failed)),
           err[-1500:])

    # urcutorture's own watchdog first (--stall-timeout 1 s, a reader stuck
    # for 3 s): STALL, exit 2, and its report agrees with the library's,
    # which came first and named the stuck thread.
    for flavor in ["memb", "qsbr"]:
        rc, out, err = run(["--mode=stall", "--flavor=" + flavor, "--duration=2s", "--stuck-for=3s",
                            "--stall-timeout=1s", "--stat-interval=0", "--json=-"], timeout=30)
        if rc == 77:
            continue
        ok(rc == 2 and last_line(err).startswith("End of test: STALL"),
           "%s: watchdog before the reader lets go: STALL, exit 2 (got %d)" % (flavor, rc), err[-800:])
        try:
            r = json.loads(out)["results"][-1]
        except (ValueError, KeyError, IndexError) as e:
            ok(False, "%s: stall: JSON report" % flavor, str(e) + out[:500])
            continue
        tid = stuck_tid(r)
        reps = [x for x in r.get("library_stall_reports") or [] if x["kind"] == "report"]
        ok(r["verdict"] == "STALL" and reps and reps[0]["t_s"] < r["seconds"] and
           all(len(x["holdouts"]) == 1 and x["holdouts"][0]["tid"] == tid and
               x["holdouts"][0]["thread"] == "stuck 0" for x in reps),
           "%s: the library reported first (%.3f s, the watchdog at %.3f s) and named the stuck "
           "reader, tid %s" % (flavor, reps[0]["t_s"] if reps else -1, r["seconds"], tid),
           str(r.get("library_stall_reports"))[:800])
        g = r.get("gp_stats") or {}
        ok(g.get("at_stall") is True and g.get("current_age_ns", 0) >= 500000000 and
           g.get("holdouts") == 1 and g.get("waiters", 0) >= 1,
           "%s: gp_stats at the stall: grace period in flight %.3f s, %s holdout, %s waiters" %
           (flavor, g.get("current_age_ns", 0) / 1e9, g.get("holdouts"), g.get("waiters")), g)
        ok(re.search(r'^  the library names tid %s "ut-stuck" \(%s\): urcutorture\'s stuck 0, '
                     % (tid, re.escape(stall_what(flavor))), err, re.M) is not None and
           re.search(r"^  library: \d+ stall reports, the first at [\d.]+ s into the combination, "
                     r"[\d.]+ s before this one", err, re.M) is not None,
           "%s: the stall report quotes the library and names the thread it named" % flavor,
           err[-1500:])


def check_tap():
    rc, out, err = run(["--tap", "--duration=1s", "--flavor=memb,bp"])
    lines = out.splitlines()
    ok(rc == 0, "tap: exit 0 (got %d)" % rc, err)
    ok(lines and lines[0] == "1..2", "tap: plan 1..2", out[:500])
    tests = [l for l in lines if l.startswith("ok ") or l.startswith("not ok ")]
    ok(len(tests) == 2 and all(l.startswith("ok ") for l in tests), "tap: two passing lines",
       "\n".join(tests))
    others = [l for l in lines[1:] if l not in tests and not l.startswith("#")]
    ok(not others, "tap: every other line is a comment", "\n".join(others))
    rc, out, err = run(["--tap", "--duration=1s", "--flavor=busted"])
    ok(rc == 1 and "\nnot ok 1 - busted/default" in "\n" + out, "tap: busted is not ok", out[-800:])


def check_modes():
    for mode, extra in [("gp-latency", []), ("gp-latency", ["--async"]), ("read-cost", ["--runs=2"]),
                        ("callback", ["--rate=20000"]), ("flood", []), ("barrier", []),
                        ("stall", ["--stuck-for=400ms"])]:
        rc, out, err = run(["--mode=" + mode, "--duration=1s", "--quiet", "--json=-"] + extra)
        tag = " ".join([mode] + extra)
        ok(rc == 0, "%s: exit 0 (got %d)" % (tag, rc), err)
        try:
            r = json.loads(out)["results"][0]
        except (ValueError, KeyError, IndexError) as e:
            ok(False, "%s: JSON" % tag, e)
            continue
        if mode == "read-cost":
            rcost = r.get("read_cost", {})
            runs = rcost.get("ns_per_read_runs", [])
            ok(len(runs) == 2 and all(v and v > 0 for v in runs), "%s: ns/read per run" % tag, rcost)
            ok((r.get("ns_per_read") or 0) > 0 and " ns/read per reader)" in err,
               "%s: its measured ns/read in the JSON result and the reads line" % tag, err[-800:])
        elif mode == "gp-latency":
            ok((r.get("gp_latency_ns") or {}).get("count", 0) > 0, "%s: GP latencies" % tag)
        elif mode == "barrier":
            ok(r["callbacks"]["barriers"] > 0, "%s: rcu_barrier rounds" % tag)
        elif mode == "stall":
            st = r.get("stall", {})
            ok(st.get("episodes", 0) > 0 and st.get("stalled_episodes") == st.get("episodes"),
               "%s: episodes, each reported by the library" % tag, st)
        else:
            cb = r["callbacks"]
            ok(cb["invoked"] > 0 and cb["invoked"] == cb["posted"], "%s: callbacks complete" % tag, cb)
            ok((cb.get("latency_ns") or {}).get("count", 0) > 0, "%s: callback latencies" % tag)


def check_misc():
    rc, out, err = run(["--help"], timeout=10)
    ok(rc == 0, "help: exit 0")
    for opt in ["--mode", "--flavor", "--call-rcu-layout", "--readers", "--updaters",
                "--fake-updaters", "--enqueuers", "--rate", "--max-outstanding", "--async",
                "--batch", "--launder", "--pipe-len", "--read-delay", "--update-delay", "--runs",
                "--duration", "--stat-interval", "--stall-timeout", "--seed", "--pin",
                "--pin-readers", "--pin-updaters", "--pin-workers", "--topology", "--dry-run",
                "--json", "--tap", "--quiet", "--version", "--stuck-for", "--lib-stall-timeout",
                "--no-implicit", "busted-stats", "Exit status"]:
        ok(opt in out, "help: documents %s" % opt)
    rc, out, err = run(["--dry-run", "--pin=compact"], timeout=10)
    ok(rc == 0 and "dry run" in out and "End of test" not in out, "dry-run: plan only", out + err)
    # A machine we do not have: 2 packages x 2 nodes x 8 cores x 2 PUs.
    topo = "--topology=synthetic:pack:2 numa:2 core:8 pu:2"
    rc, out, err = run([topo, "--pin=scatter", "--dry-run"], timeout=10)
    ok(rc == 0 and "64 PUs" in out, "dry-run: synthetic topology loaded", out + err)
    ok(out.count("reader ") >= 64 and "End of test" not in out,
       "dry-run: one reader per PU of the planned machine by default", out)
    rc, out, err = run([topo, "--duration=1s"], timeout=10)
    ok(rc == 64 and "--topology" in err, "synthetic topology without --dry-run: usage error", err)
    # The seed is printed and reproduces the same random choices.
    rc, out, err = run(["--duration=300ms", "--seed=4242", "--quiet"])
    ok(rc == 0 and "seed=4242" in out.splitlines()[0], "seed: printed on the start line")


HELP_TEXT_COL = 25


def help_entries(text, option, pattern):
    """The matches of pattern at the text column of the lines of --help's
    entry for option (from its first line to the next option), in order."""
    found, inside = [], False
    for line in text.splitlines():
        if line.startswith("  " + option):
            inside = True
        elif inside and line.startswith("  --"):
            break
        if not inside or len(line) <= HELP_TEXT_COL or line[HELP_TEXT_COL] == " ":
            continue
        m = re.match(pattern, line[HELP_TEXT_COL:])
        if m:
            found.append(m)
    return found


def help_modes(text):
    """Mode names the --mode=MODE entry of --help describes, in order, and
    which one it calls the default."""
    found = help_entries(text, "--mode=MODE", r"([a-z0-9-]+)( \(default\))?:")
    defaults = [m.group(1) for m in found if m.group(2)]
    return [m.group(1) for m in found], defaults[0] if defaults else None


def help_flavors(text):
    """Flavor names the --flavor=LIST entry of --help describes, in order,
    with their kinds."""
    return [m.groups() for m in help_entries(text, "--flavor=LIST", r"([a-z0-9-]+) \((\w+)\):")]


MAN_PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "man",
                        "urcutorture.1")


def man_list(start, stop):
    """The '.TP' / '.B NAME' items of man/urcutorture.1 from the line start
    up to the line stop (the modes, or the flavors of --flavor)."""
    with open(MAN_PAGE) as f:
        lines = f.read().splitlines()
    begin = lines.index(start)
    end = next(i for i in range(begin + 1, len(lines)) if lines[i].startswith(stop))
    return [lines[i + 1][3:] for i in range(begin, end)
            if lines[i] == ".TP" and lines[i + 1].startswith(".B ")]


def check_flavor_registry():
    # The flavor registry: --list-flavors, --help and the man page name
    # exactly the same flavors (and --help and --list-flavors the same kinds).
    rc, out, err = run(["--list-flavors"], timeout=10)
    listed = [tuple(line.split()[:2]) for line in out.splitlines()]
    names = [n for n, _ in listed]
    ok(rc == 0 and "memb" in names and all(k in ("real", "busted", "seeded") for _, k in listed),
       "list-flavors: exit 0, memb, every kind real, busted or seeded", out + err)
    ok(len(set(names)) == len(names), "list-flavors: no name twice", out)
    rc, out, err = run(["--help"], timeout=10)
    ok(help_flavors(out) == listed, "help: --flavor names exactly the registered flavors",
       "help: %s\nlist: %s" % (help_flavors(out), listed))
    man = man_list(r".BI \-\-flavor= LIST", ".BI ")
    ok(man == names, "man page: --flavor names exactly the registered flavors",
       "man: %s\nlist: %s" % (man, names))
    rc, out, err = run(["--flavor=nap", "--dry-run"], timeout=10)
    ok(rc == 64 and "unknown flavor 'nap'" in err, "flavor=nap: a usage error", err)
    for name, kind in listed:
        if kind != "seeded":   # (their modules: the litmus tests)
            rc, out, err = run(["--flavor=" + name, "--dry-run"], timeout=10)
            if rc == 77 and kind == "busted" and "is not built into this binary" in err:
                # A busted flavor whose base lacks what it patches (the
                # 32-bit build: busted-stats-double needs gp_flipped).
                ok(True, "%s: # SKIP not built into this binary" % name)
                continue
            ok(rc == 0, "%s: accepted (dry run)" % name, out + err)


def check_registry():
    # Every mode of the registry is complete, and --help, --list-modes, the
    # --mode error and the man page all name exactly the registered modes;
    # the same for the flavors (check_flavor_registry).
    rc, out, err = run(["--list-modes"], timeout=10)
    modes = out.split()
    ok(rc == 0 and len(modes) > 0, "list-modes: exit 0 and some modes (got %d)" % rc, out + err)
    ok(len(set(modes)) == len(modes), "list-modes: no name twice", out)
    rc, out, err = run(["--self-check-modes"], timeout=10)
    ok(rc == 0, "self-check-modes: exit 0 (got %d)" % rc, out + err)
    checked = re.findall(r"^ok \d+ - mode (\S+)$", out, re.M)
    ok(checked == modes and "not ok" not in out,
       "self-check-modes: every listed mode has its mandatory hooks", out)
    rc, out, err = run(["--help"], timeout=10)
    names, default = help_modes(out)
    ok(names == modes, "help: --mode names exactly the registered modes (%s)" % ", ".join(names),
       "help: %s\nlist: %s" % (names, modes))
    ok(modes and default == modes[0], "help: the first registered mode is the default (%s)" % default)
    rc, out, err = run(["--mode=nap"], timeout=10)
    m = re.search(r"\(([^)]*)\)", err)
    ok(rc == 64 and m and m.group(1).split(", ") == modes,
       "mode=nap: the usage error lists the registered modes", err)
    for mode in modes:
        rc, out, err = run(["--mode=" + mode, "--dry-run"], timeout=10)
        ok(rc == 0 and (" mode=%s " % mode) in out, "%s: accepted (dry run)" % mode, out + err)
    # The modes' own options (their tables): on the start line with their
    # defaults, each accepted, a value out of range refused.
    rc, out, err = run(["--dry-run"], timeout=10)
    start = out.splitlines()[0] if out else ""
    for pair in ["fake-updaters=1", "pipe-len=10", "update-delay=0ns", "async=0", "runs=5",
                 "rate=0", "launder=3", "batch=100", "no-implicit=0"]:
        ok((" %s " % pair) in start, "start line: mode option %s" % pair, start)
    rc, out, err = run(["--dry-run", "--mode=barrier", "--batch=7", "--pipe-len=64"], timeout=10)
    ok(rc == 0 and " batch=7 " in out and " pipe-len=64 " in out,
       "mode options: set from the command line", out + err)
    rc, out, err = run(["--dry-run", "--mode=litmus", "--no-implicit"], timeout=10)
    ok(rc == 0 and " no-implicit=1 " in out, "mode options: --no-implicit (stress, litmus)", out + err)
    rc, out, err = run(["--dry-run", "--pipe-len=65"], timeout=10)
    ok(rc == 64 and "--pipe-len: 65 is out of range 3..64" in err, "mode options: range", err)
    man = man_list(".SH MODES", ".SH ")
    ok(man == modes, "man page: MODES names exactly the registered modes",
       "man: %s\nlist: %s" % (man, modes))
    check_flavor_registry()


def crash_run(hook, args):
    """Run with the crash test hook URCUTORTURE_TEST_CRASH=HOOK."""
    os.environ["URCUTORTURE_TEST_CRASH"] = hook
    try:
        return run(args, timeout=60)
    finally:
        del os.environ["URCUTORTURE_TEST_CRASH"]


def check_crash():
    # A fatal signal is the verdict CRASH: exit 1, who and what crashed, the
    # JSON report.  The hook makes the first thread of a role read a freed
    # (unmapped) page, or overflow its stack (the handler's alternate stack).
    for hook, mode, role in [("reader", "stress", "reader"), ("reader:stack", "stress", "reader"),
                             ("consumer", "queue", "consumer")]:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.json")
            rc, out, err = crash_run(hook, ["--mode=" + mode, "--flavor=memb", "--duration=5s",
                                            "--seed=77", "--json=" + path])
            ok(rc == 1, "crash %s: exit 1 (got %d)" % (hook, rc), out + err)
            ok("FAILURE: crashed (likely use after free)" in out, "crash %s: the FAILURE line" % hook,
               out + err)
            ok(re.search(r"!!! CRASH: SIGSEGV at fault address 0x[0-9a-f]+ in %s 0 after [0-9]+\.[0-9]{3} s\n"
                         % role, out)
               and "mode %s, flavor memb, call_rcu layout default, seed 77" % mode in out,
               "crash %s: signal, address, thread, mode, flavor, layout, seed" % hook, out)
            ok(last_line(out).startswith("End of test: CRASH mode=%s" % mode),
               "crash %s: End of test: CRASH" % hook, out)
            try:
                with open(path) as f:
                    doc = json.load(f)
            except (OSError, ValueError) as e:
                ok(False, "crash %s: JSON report" % hook, e)
                continue
            c = doc.get("crash") or {}
            ok(doc.get("verdict") == "CRASH" and doc.get("exit_code") == 1 and
               [r["verdict"] for r in doc["results"]] == ["CRASH"] and
               c.get("signal") == "SIGSEGV" and c.get("role") == role and c.get("index") == 0,
               "crash %s: JSON verdict CRASH, the crash object" % hook, json.dumps(c))
            # The hook crashes 100 ms after the thread starts: the crash's
            # time is at least that, and well inside the 5 s run.
            ok(isinstance(c.get("after_s"), (int, float)) and 0.1 <= c["after_s"] < 5,
               "crash %s: after_s, the crash's time since the start (got %r)" % (hook, c.get("after_s")),
               json.dumps(c))
    rc, out, err = crash_run("reader", ["--flavor=memb", "--duration=5s", "--tap"])
    ok(rc == 1 and "\nnot ok 1 - memb/default stress # CRASH" in out and "Bail out! crash" in out and
       "# FAILURE: crashed (likely use after free)" in out, "crash --tap: not ok, Bail out!", out)
    rc, out, err = run(["--flavor=memb", "--duration=300ms", "--json=-", "--quiet"])
    ok(rc == 0 and json.loads(out).get("crash", 0) is None, "no crash: \"crash\": null", out[-300:])


CHECKS = {"flavor": lambda: check_flavor(utcheck.ARGS[0], utcheck.ARGS[1:]),
          "stall-lib": lambda: check_stall_lib(utcheck.ARGS[0]), "gp-stats": check_gp_stats,
          "busted": check_busted, "bad-input": check_bad_input, "stall": check_stall,
          "json": check_json, "tap": check_tap, "modes": check_modes, "misc": check_misc,
          "registry": check_registry, "crash": check_crash}


if __name__ == "__main__":
    sys.exit(utcheck.main(__doc__, CHECKS))
