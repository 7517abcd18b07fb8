"""Fixtures of the browser suite: a `diffable-web` server process and Debian's chromium,
driven headless by Playwright (no browser download: it launches /usr/bin/chromium)."""

import json
import os
import subprocess
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

# Where the web package's programs were built (make web-build: debug; make web-bench: release).
BUILD = os.environ.get("DIFFABLE_WEB_BUILD", os.path.join(os.path.dirname(__file__), "..", ".build", "debug"))
# What each server command runs: the shipped demo, or the test and bench servers (not shipped).
PROGRAMS = {"serve": ["diffable-web", "serve"], "test-server": ["diffable-web-test-server"],
            "bench-server": ["diffable-web-bench-server"], "example": ["diffable-web-example"]}
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


class Server:
    """A server process (`serve`, `test-server` or `bench-server`, see PROGRAMS) on port 0;
    `url` is what it printed."""

    def __init__(self, command, *args):
        program, *words = PROGRAMS[command]
        self.process = subprocess.Popen([os.path.join(BUILD, program), *words, *args, "--port", "0"],
                                        stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if "http://" not in line:
            self.process.kill()
            raise RuntimeError(f"{program} {' '.join(args)} printed no URL: {line!r}")
        self.url = line[line.index("http://"):].strip()
        self.base = self.url.rstrip("/")

    def post(self, path, body):
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST")
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.read().decode()

    def get(self, path):
        with urllib.request.urlopen(self.base + path, timeout=60) as response:
            return response.read().decode()

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield launched
        launched.close()


@pytest.fixture
def server():
    running = Server("test-server")
    yield running
    running.stop()


@pytest.fixture
def page(browser, server):
    """The test page, connected, with a MutationObserver counting the list's node changes."""
    context = browser.new_context()
    opened = context.new_page()
    errors = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    server.post("/test/apply", {"sections": []})
    opened.goto(server.url)
    opened.wait_for_function("window.list && window.list.stats.reloads >= 1")
    opened.evaluate(
        """() => {
        window.mutations = { rows: 0, sections: 0 };
        new MutationObserver((records) => {
          for (const r of records) {
            const n = r.addedNodes.length + r.removedNodes.length;
            if (r.target.classList && r.target.classList.contains("dl-rows")) window.mutations.rows += n;
            else if (r.target.id === "list") window.mutations.sections += n;
          }
        }).observe(document.getElementById("list"), { childList: true, subtree: true });
      }"""
    )
    opened.errors = errors
    yield opened
    context.close()
    assert not errors, f"errors in the page: {errors}"
