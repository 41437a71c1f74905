#!/usr/bin/env python3
"""Hostile uploads against a real `scanextract serve` on loopback (issue 10's last figure).

Makes COUNT mutated files from the project's own Samples/ (images, PDFs and a JSON document the
binary writes from Samples/invoice.pdf), posts each as an async job, probes /healthz every
50 ms the whole time, then waits for every job to end. It passes when:
  - the server never stops answering (no refused connection, no /healthz other than 200);
  - every upload is answered 202 (a job) or with a problem document (400, 413, 415, 422);
  - every job ends, succeeded or failed, and every failed job has an error code that its
    /result answers as application/problem+json.

    Benchmarks/service-fuzz.py BINARY [--count 1000] [--seed 1] [--workers 2] [--keep DIR]

Python's standard library only. The mutations are deterministic for a seed. --keep DIR saves
the inputs whose jobs failed, or whose upload was refused, with the reason in index.tsv.
"""
import argparse
import http.client
import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# --- Mutations -------------------------------------------------------------------------------

def flip_bits(data, rng):
    out = bytearray(data)
    for _ in range(rng.randint(1, 64)):
        i = rng.randrange(len(out))
        out[i] ^= 1 << rng.randrange(8)
    return bytes(out)


def overwrite_range(data, rng):
    out = bytearray(data)
    start = rng.randrange(len(out))
    n = min(len(out) - start, rng.randint(1, 4096))
    out[start:start + n] = os.urandom(n) if rng.random() < 0.5 else bytes([rng.choice((0, 0xFF))]) * n
    return bytes(out)


def truncate(data, rng):
    return data[:rng.randrange(1, max(2, len(data)))]


def delete_chunk(data, rng):
    start = rng.randrange(len(data))
    return data[:start] + data[start + rng.randint(1, 8192):]


def duplicate_chunk(data, rng):
    start = rng.randrange(len(data))
    chunk = data[start:start + rng.randint(1, 8192)]
    at = rng.randrange(len(data))
    return data[:at] + chunk * rng.randint(1, 20) + data[at:]


def header_then_noise(data, rng):
    return data[:rng.randint(8, 64)] + os.urandom(rng.randint(0, 200_000))


def interesting_values(data, rng):
    out = bytearray(data)
    values = [b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00",
              b"\x00\x00\xff\xff", b"\xff\xff", b"\x00\x00"]
    for _ in range(rng.randint(1, 16)):
        v = rng.choice(values)
        i = rng.randrange(max(1, len(out) - len(v)))
        out[i:i + len(v)] = v
    return bytes(out)


def splice(data, rng, others):
    other = rng.choice(others)
    return data[:rng.randrange(len(data))] + other[rng.randrange(len(other)):]


def huge_dimensions(data, rng):
    """Claims a page far larger than the file: a decompression bomb's header."""
    w, h = rng.choice([(100_000, 100_000), (65_535, 65_535), (1, 2_000_000), (30_000, 30_000)])
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        ihdr = bytearray(data[8:33])  # length, "IHDR", 13 bytes, crc
        ihdr[8:16] = struct.pack(">II", w, h)
        ihdr[21:25] = struct.pack(">I", zlib.crc32(bytes(ihdr[4:21])) & 0xFFFFFFFF)
        return data[:8] + bytes(ihdr) + data[33:]
    if data.startswith(b"\xff\xd8"):
        out = bytearray(data)
        for marker in (b"\xff\xc0", b"\xff\xc2", b"\xff\xc1"):
            i = out.find(marker)
            if i >= 0:
                out[i + 5:i + 9] = struct.pack(">HH", min(h, 65_535), min(w, 65_535))
                return bytes(out)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        # TIFF: ImageWidth (256) and ImageLength (257) entries of the first IFD, in place.
        little = data[:2] == b"II"
        e = "<" if little else ">"
        out = bytearray(data)
        (ifd,) = struct.unpack(e + "I", data[4:8])
        if ifd + 2 <= len(data):
            (count,) = struct.unpack(e + "H", data[ifd:ifd + 2])
            for k in range(count):
                at = ifd + 2 + 12 * k
                if at + 12 > len(data):
                    break
                tag, kind = struct.unpack(e + "HH", data[at:at + 4])
                if tag in (256, 257):
                    value = w if tag == 256 else h
                    out[at + 2:at + 4] = struct.pack(e + "H", 4)  # LONG
                    out[at + 4:at + 8] = struct.pack(e + "I", 1)
                    out[at + 8:at + 12] = struct.pack(e + "I", value)
            return bytes(out)
    if data.startswith(b"%PDF"):
        return re.sub(rb"/MediaBox\s*\[[^\]]*\]", b"/MediaBox [0 0 %d %d]" % (w, h), data)
    return flip_bits(data, rng)


def pdf_surgery(data, rng):
    """Breaks a PDF's structure where parsers trust it: lengths, offsets, object numbers, filters."""
    if not data.startswith(b"%PDF"):
        return interesting_values(data, rng)
    choice = rng.randrange(6)
    if choice == 0:
        return re.sub(rb"/Length \d+", lambda m: b"/Length %d" % rng.choice([0, 1, 2**31 - 1, 99999999]), data)
    if choice == 1:
        return re.sub(rb"startxref\s+\d+", b"startxref\n%d" % rng.randrange(len(data) * 2), data)
    if choice == 2:
        return data.replace(b"/FlateDecode", rng.choice([b"/DCTDecode", b"/LZWDecode", b"/NoSuchDecode"]))
    if choice == 3:
        # Every page's /Contents pointing at the page itself: a loop for a careless reader.
        return re.sub(rb"/Contents \d+ 0 R", b"/Contents 1 0 R", data)
    if choice == 4:
        return data.replace(b"/Root", b"/Encrypt 1 0 R /Root", 1)
    # A page tree whose Kids name each other.
    return re.sub(rb"/Kids \[[^\]]*\]", b"/Kids [3 0 R 3 0 R 3 0 R]", data)


def json_mutation(data, rng):
    if not data.lstrip().startswith(b"{"):
        return flip_bits(data, rng)
    choice = rng.randrange(4)
    if choice == 0:
        return b"[" * 100_000 + b"]" * 100_000  # deep nesting
    if choice == 1:
        return re.sub(rb'"(x|y|width|height)"\s*:\s*[-0-9.e]+', lambda m: b'"%s": %s' % (
            m.group(1), rng.choice([b"1e308", b"-1e308", b"NaN", b"null", b'"a"'])), data)
    if choice == 2:
        return data.replace(b'"text"', b'"text": "' + b"A" * 1_000_000 + b'", "_"', 1)
    return truncate(data, rng)


MUTATIONS = [flip_bits, overwrite_range, truncate, delete_chunk, duplicate_chunk, header_then_noise,
             interesting_values, huge_dimensions, pdf_surgery, json_mutation]


def make_inputs(seeds, count, rng):
    names = sorted(seeds)
    others = [seeds[n] for n in names]
    for i in range(count):
        name = rng.choice(names)
        data = seeds[name]
        how = []
        # One to three mutations on top of each other; now and then an empty or one-byte body.
        if rng.random() < 0.01:
            yield i, name, ["empty"], b"" if rng.random() < 0.5 else b"\x89"
            continue
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            mutation = rng.choice(MUTATIONS)
            data = mutation(data, rng, others) if mutation is splice else mutation(data, rng)
            how.append(mutation.__name__)
            if not data:
                data = b"\x00"
        if rng.random() < 0.1:
            data = splice(data, rng, others)
            how.append("splice")
        yield i, name, how, data


# --- The server --------------------------------------------------------------------------------

class Server:
    def __init__(self, binary, data_dir, workers, count):
        self.log = open(os.path.join(data_dir, "server.log"), "w+")
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--data-dir", os.path.join(data_dir, "data"),
             "--workers", str(workers), "--max-queued", str(count + 100), "--job-timeout", "120",
             "--max-attempts", "2", "--retry-backoff", "1"],
            stderr=self.log, stdout=subprocess.DEVNULL)
        self.port = None
        for _ in range(600):
            self.log.seek(0)
            m = re.search(r"listening on http://127\.0\.0\.1:(\d+)", self.log.read())
            if m:
                self.port = int(m.group(1))
                break
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        if not self.port:
            self.log.seek(0)
            sys.exit("the server did not start:\n" + self.log.read())

    def request(self, method, path, body=None, headers=None, timeout=60):
        c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            c.request(method, path, body=body, headers=headers or {})
            r = c.getresponse()
            return r.status, dict((k.lower(), v) for k, v in r.getheaders()), r.read()
        finally:
            c.close()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()


class HealthProbe(threading.Thread):
    """GET /healthz every 50 ms; counts answers other than 200 and the slowest one."""

    def __init__(self, server):
        super().__init__(daemon=True)
        self.server, self.stop_flag = server, threading.Event()
        self.probes, self.failures, self.slowest, self.first_failure = 0, 0, 0.0, None

    def run(self):
        while not self.stop_flag.is_set():
            start = time.monotonic()
            try:
                status, _, _ = self.server.request("GET", "/healthz", timeout=5)
                ok = status == 200
                why = f"status {status}"
            except Exception as e:  # refused, reset, timed out: the server is down
                ok, why = False, repr(e)
            self.probes += 1
            self.slowest = max(self.slowest, time.monotonic() - start)
            if not ok:
                self.failures += 1
                self.first_failure = self.first_failure or why
            time.sleep(0.05)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("binary")
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--keep", help="save refused uploads and failed jobs' inputs here")
    p.add_argument("--deadline", type=float, default=3600, help="seconds to wait for every job to end")
    a = p.parse_args()
    binary = os.path.realpath(a.binary)
    rng = random.Random(a.seed)

    samples = os.path.join(ROOT, "Samples")
    seeds = {}
    for name in sorted(os.listdir(samples)):
        if name.lower().endswith((".png", ".jpg", ".jpeg", ".tif", ".tiff", ".pdf")):
            with open(os.path.join(samples, name), "rb") as f:
                seeds[name] = f.read()
    seeds["invoice.json"] = subprocess.run([binary, "--quiet", os.path.join(samples, "invoice.pdf")],
                                           check=True, capture_output=True).stdout

    work = tempfile.mkdtemp(prefix="scanextract-fuzz-")
    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        index = open(os.path.join(a.keep, "index.tsv"), "w")
    server = Server(binary, work, a.workers, a.count)
    probe = HealthProbe(server)
    probe.start()
    started = time.monotonic()
    upload_statuses, problems, jobs, bad_uploads = {}, {}, {}, []
    inputs = {}
    try:
        for i, name, how, data in make_inputs(seeds, a.count, rng):
            label = f"{i:04d}-{name}-{'+'.join(how)}"
            try:
                status, headers, body = server.request("POST", "/v1/extractions?async=true", body=data,
                                                       headers={"Content-Type": "application/octet-stream"})
            except Exception as e:
                bad_uploads.append((label, f"no answer: {e!r}"))
                continue
            upload_statuses[status] = upload_statuses.get(status, 0) + 1
            if status == 202:
                jobs[json.loads(body)["id"]] = label
                inputs[label] = data
            elif status in (400, 413, 415, 422) and headers.get("content-type", "").startswith("application/problem+json"):
                code = json.loads(body).get("code", "")
                problems[code] = problems.get(code, 0) + 1
                if a.keep:
                    with open(os.path.join(a.keep, label), "wb") as f:
                        f.write(data)
                    index.write(f"{label}\tupload {status} {code}\n")
            else:
                bad_uploads.append((label, f"status {status}: {body[:200]!r}"))
        posted = time.monotonic() - started
        print(f"{a.count} mutated inputs posted in {posted:.1f} s: " +
              ", ".join(f"{s}: {n}" for s, n in sorted(upload_statuses.items())))
        print("refused at upload, by code: " + (", ".join(f"{c} {n}" for c, n in sorted(problems.items())) or "none"))

        # Every job ends.
        ended, outcomes, codeless = {}, {}, []
        deadline = time.monotonic() + a.deadline
        pending = list(jobs)
        while pending and time.monotonic() < deadline:
            still = []
            for job_id in pending:
                try:
                    status, _, body = server.request("GET", f"/v1/jobs/{job_id}?wait=1")
                    job = json.loads(body) if status == 200 else {}
                except Exception as e:
                    job = {}
                    bad_uploads.append((jobs[job_id], f"job state unreadable: {e!r}"))
                if job.get("status") in ("succeeded", "failed", "canceled"):
                    ended[job_id] = job
                else:
                    still.append(job_id)
            pending = still
        for job_id, job in ended.items():
            if job["status"] == "failed":
                code = (job.get("error") or {}).get("code") or ""
                status, headers, body = server.request("GET", f"/v1/jobs/{job_id}/result")
                answered = headers.get("content-type", "").startswith("application/problem+json") and \
                    json.loads(body).get("code") == code
                if not code or not answered:
                    codeless.append((jobs[job_id], job))
                key = f"failed {code}"
                if a.keep:
                    label = jobs[job_id]
                    with open(os.path.join(a.keep, label), "wb") as f:
                        f.write(inputs[label])
                    index.write(f"{label}\tjob failed {code}: {(job.get('error') or {}).get('message', '')}\n")
            else:
                key = job["status"]
            outcomes[key] = outcomes.get(key, 0) + 1
        total = time.monotonic() - started
        print(f"jobs: {len(jobs)}; ended within {total:.0f} s: {len(ended)}; not ended: {len(pending)}")
        print("outcomes: " + ", ".join(f"{k} {n}" for k, n in sorted(outcomes.items())))
        status, _, metrics = server.request("GET", "/metrics")
        restarts = re.findall(rb'scanextract_worker_restarts_total\{reason="(\w+)"\} (\d+)', metrics)
        print("worker restarts: " + ", ".join(f"{r.decode()} {n.decode()}" for r, n in restarts))
    finally:
        probe.stop_flag.set()
        probe.join()
        alive = server.process.poll() is None
        server.stop()
    print(f"/healthz: {probe.probes} probes, {probe.failures} not answered 200, slowest {probe.slowest * 1000:.0f} ms"
          + (f" (first failure: {probe.first_failure})" if probe.first_failure else ""))
    print(f"server alive at the end: {'yes' if alive else 'no'}")
    for label, why in bad_uploads[:20]:
        print(f"  bad answer: {label}: {why}")
    for label, job in codeless[:20]:
        print(f"  failed without a problem code: {label}: {job}")
    ok = alive and probe.failures == 0 and not bad_uploads and not pending and not codeless
    print("PASS" if ok else "FAIL")
    if ok:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"server log and data kept in {work}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
