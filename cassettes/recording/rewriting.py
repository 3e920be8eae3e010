"""Make a recording against the emulator look like one against GitHub: GitHub URLs, no
Authorization or volatile headers, frozen rate-limit resets and request ids, ETags over the
rewritten bodies. Every recorder (verify, publish, audit) stores its cassettes this way."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import yaml

GITHUB_API = "https://api.github.com"
BLOB_HOST = "https://pipelines.actions.githubusercontent.com"
RAW_HOST = "https://raw.githubusercontent.com"
FROZEN_RESET = "1787400000"
DROP_RESPONSE_HEADERS = {"date", "server", "connection", "keep-alive"}
MATCH_ON = ["method", "scheme", "host", "port", "path", "query"]


def rewrite(text: str, base: str) -> str:
    """Make a recording against the emulator look like one against GitHub."""
    cassette = yaml.safe_load(text)
    for index, interaction in enumerate(cassette["interactions"]):
        request, response = interaction["request"], interaction["response"]
        request["uri"] = _github_urls(request["uri"], base)
        request["headers"] = {
            k: v
            for k, v in request["headers"].items()
            if k.lower() not in {"authorization", "user-agent"}
        }
        headers: dict[str, list[str]] = {}
        for key, values in response["headers"].items():
            lower = key.lower()
            if lower in DROP_RESPONSE_HEADERS:
                continue
            if lower == "x-ratelimit-reset":
                values = [FROZEN_RESET]
            elif lower == "x-github-request-id":
                values = [f"0000:0000:{index:06X}:SIGNOFF"]
            elif lower in {"link", "location"}:
                values = [_github_urls(value, base) for value in values]
            headers[key] = values
        body = response["body"].get("string")
        new_body = _rewrite_body(body, base)
        if new_body is not body:
            response["body"]["string"] = new_body
            for key in headers:
                if key.lower() == "content-length":
                    size = len(new_body.encode() if isinstance(new_body, str) else new_body)
                    headers[key] = [str(size)]
        for key in headers:
            if key.lower() == "etag":  # the emulator's ETag hashed the body before the rewrite
                raw_body = response["body"].get("string") or b""
                data = raw_body.encode() if isinstance(raw_body, str) else raw_body
                headers[key] = [f'W/"{hashlib.md5(data).hexdigest()}"']
        response["headers"] = headers
    return yaml.safe_dump(cassette, sort_keys=True, allow_unicode=True, width=100)


def _rewrite_body(body: Any, base: str) -> Any:
    if isinstance(body, bytes):
        try:
            decoded = body.decode("utf-8")
        except UnicodeDecodeError:
            return body  # a zip blob
        replaced = _github_urls(decoded, base)
        return replaced if replaced != decoded else body
    if isinstance(body, str):
        replaced = _github_urls(body, base)
        return replaced if replaced != body else body
    return body


def _github_urls(text: str, base: str) -> str:
    text = re.sub(r"request ID [0-9A-F]{8,}", "request ID 0000000000000000", text)
    text = re.sub(
        re.escape(base) + r"/_ghemu/blobs/([^\s\"?]*)(\?[^\s\"]*)?", BLOB_HOST + r"/\1", text
    )
    text = re.sub(re.escape(base) + r"/_ghemu/raw/", RAW_HOST + "/", text)
    return text.replace(base, GITHUB_API)
