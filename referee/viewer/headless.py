"""Drives a headless Chromium over the Chrome DevTools Protocol: open a page, run script, take a screenshot.

Used by the browser tests and by scripts/screenshots; needs the `chromium` package and `websockets`.
"""

from __future__ import annotations

import base64
import contextlib
import itertools
import json
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CANDIDATES = ("chromium", "chromium-browser", "google-chrome")


class BrowserError(RuntimeError):
    """The browser could not be started or a page did not behave."""


def find_chromium() -> str:
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    raise BrowserError("no chromium found (install the Debian package `chromium`)")


class Browser:
    """One headless Chromium process; `page()` opens tabs on it."""

    def __init__(self, width: int = 1320, height: int = 1000) -> None:
        self.profile = tempfile.mkdtemp(prefix="b99-chromium-")
        self.process = subprocess.Popen(
            [
                find_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--remote-debugging-port=0",
                f"--user-data-dir={self.profile}", f"--window-size={width},{height}", "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        port_file = Path(self.profile) / "DevToolsActivePort"
        deadline = time.monotonic() + 20
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.process.poll() is not None:
                self.close()
                raise BrowserError("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        self.port = int(port_file.read_text().split()[0])
        self.width, self.height = width, height

    def page(self) -> Page:
        from urllib.request import Request, urlopen

        with urlopen(Request(f"http://127.0.0.1:{self.port}/json/new?about:blank", method="PUT"), timeout=10) as answer:
            target = json.load(answer)
        stack = contextlib.ExitStack()
        socket = stack.enter_context(connect(target["webSocketDebuggerUrl"], max_size=64 * 2**20, open_timeout=10))
        return Page(socket, self, stack)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


class Page:
    """One tab: navigate, evaluate JavaScript, wait for a condition, capture a PNG; collects script errors."""

    def __init__(self, socket: ClientConnection, browser: Browser, stack: contextlib.ExitStack[None]) -> None:
        self.socket = socket
        self.stack = stack
        self.ids = itertools.count(1)
        self.errors: list[str] = []
        self.send("Runtime.enable")
        self.send("Page.enable")
        self.send("Emulation.setDeviceMetricsOverride", width=browser.width, height=browser.height, deviceScaleFactor=1, mobile=False)

    def send(self, method: str, **params: Any) -> dict[str, Any]:
        ident = next(self.ids)
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = self._receive(30.0)
            if message.get("id") == ident:
                if "error" in message:
                    raise BrowserError(f"{method}: {message['error'].get('message')}")
                return dict(message.get("result", {}))

    def _receive(self, timeout: float) -> dict[str, Any]:
        """The next message from the browser; script errors and console errors are collected on the way."""
        message: dict[str, Any] = json.loads(self.socket.recv(timeout=timeout))
        if message.get("method") == "Runtime.exceptionThrown":
            details = message["params"]["exceptionDetails"]
            self.errors.append(str(details.get("exception", {}).get("description") or details.get("text")))
        elif message.get("method") == "Runtime.consoleAPICalled" and message["params"].get("type") == "error":
            self.errors.append(" ".join(str(a.get("value", a.get("description", ""))) for a in message["params"]["args"]))
        return message

    def goto(self, url: str, timeout: float = 20.0) -> None:
        """Navigate and wait until the page has loaded."""
        self.send("Page.navigate", url=url)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._receive(max(0.1, deadline - time.monotonic())).get("method") == "Page.loadEventFired":
                return
        raise BrowserError(f"{url} did not load in {timeout:g} s")

    def evaluate(self, expression: str) -> Any:  # noqa: ANN401 - whatever the script returns
        result = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise BrowserError(f"script failed: {result['exceptionDetails'].get('text')}: {expression[:80]}")
        return result.get("result", {}).get("value")

    def wait_for(self, expression: str, timeout: float = 15.0) -> Any:  # noqa: ANN401
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except BrowserError:
                value = None
            if value:
                return value
            time.sleep(0.05)
        raise BrowserError(f"timed out waiting for {expression}")

    def resize(self, width: int, height: int, mobile: bool = False) -> None:
        """Give the tab a window of this size (a phone's with `mobile`: its viewport tag then counts)."""
        self.send("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=mobile)

    def press(self, key: str, code: str = "", key_code: int = 0, shift: bool = False) -> None:
        """Press and release one key as a person does (the browser's default actions included)."""
        common: dict[str, Any] = {"key": key, "code": code or key, "windowsVirtualKeyCode": key_code, "modifiers": 8 if shift else 0}
        text = {"text": key} if len(key) == 1 else {}
        self.send("Input.dispatchKeyEvent", type="keyDown", **common, **text)
        self.send("Input.dispatchKeyEvent", type="keyUp", **common)

    def click_at(self, x: float, y: float) -> None:
        """A real mouse click at page coordinates (what a person's click does, focus included)."""
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1)

    def screenshot(self, path: str | Path, full_page: bool = True) -> None:
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.evaluate("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params["clip"] = {"x": 0, "y": 0, "width": size[0], "height": size[1], "scale": 1}
            params["captureBeyondViewport"] = True
        data = self.send("Page.captureScreenshot", **params)["data"]
        Path(path).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self.stack.close()
