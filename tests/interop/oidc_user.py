"""The person's part of a sign-in at oidc-provider, played over plain HTTP (no browser): its dev login page takes
any user, its consent page one button. Synchronous, so a test runs it in a thread while switchboard waits."""

from __future__ import annotations

import re

import httpx

USER = "alice"


def _form_field(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([^"]*)"', html)
    assert found, f"no {name} field in the page: {html[:300]}"
    return found.group(1)


def _interactions(http: httpx.Client, response: httpx.Response, *, deny: bool = False) -> httpx.Response:
    """Follow redirects through /interaction/{uid}: log in, consent (or abort); returns the first response that
    leaves the issuer (its Location is the client's redirect) or the last page of the issuer."""
    issuer = f"{response.url.scheme}://{response.url.netloc.decode()}"
    while response.is_redirect:
        location = response.headers["location"]
        url = location if location.startswith("http") else issuer + location
        if not url.startswith(issuer):
            return response  # the redirect back to the client: the caller reads the code from it
        match = re.search(r"/interaction/([^/?]+)$", url)
        if match and deny:
            response = http.get(f"{issuer}/interaction/{match.group(1)}/abort")
            continue
        if match:
            page = http.get(url)
            prompt = "login" if 'name="login"' in page.text else "consent"
            data = {"prompt": prompt}
            if prompt == "login":
                data |= {"login": USER, "password": "any"}
            response = http.post(url, data=data)
            continue
        response = http.get(url)
    return response


def authorize(url: str, *, deny: bool = False) -> str:
    """Visit the authorization URL as the person, sign in and consent (or refuse), and deliver the redirect to
    the loopback listener switchboard waits on, as a browser would. Returns the redirect URL."""
    with httpx.Client(follow_redirects=False, timeout=30) as http:
        final = _interactions(http, http.get(url), deny=deny)
        assert final.is_redirect, f"the issuer did not redirect back: HTTP {final.status_code} {final.text[:300]}"
        redirect = final.headers["location"]
        httpx.get(redirect, timeout=30)  # the browser follows it to 127.0.0.1: switchboard's listener
        return redirect


def enter_device_code(verification_uri: str, user_code: str, *, deny: bool = False) -> str:
    """At the verification URI: the user code with its xsrf, confirm, log in, consent (or abort). Returns the
    last page's text."""
    with httpx.Client(follow_redirects=False, timeout=30) as http:
        page = http.get(verification_uri)
        xsrf = _form_field(page.text, "xsrf")
        confirm = http.post(verification_uri, data={"xsrf": xsrf, "user_code": user_code})
        xsrf = _form_field(confirm.text, "xsrf")
        data = {"xsrf": xsrf, "user_code": user_code, "confirm": "yes"}
        if deny:
            data = {"xsrf": xsrf, "user_code": user_code, "abort": "yes"}
        response = _interactions(http, http.post(verification_uri, data=data))
        return response.text
