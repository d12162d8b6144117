"""The parts of an agent card both wire versions read: security schemes and requirements in either shape (a card
may mix them: a v0.3 card carrying a v1.0 scheme, and back), skills, capabilities and the provider.

One module both codecs import, so neither imports the other.
"""

from __future__ import annotations

from typing import Any

from ..model import Capabilities, Extension, Provider, SecurityScheme, Skill
from .common import Notes, brief, obj, opt_bool, opt_dict, opt_list, opt_str, req_str, str_list

# --- security schemes ----------------------------------------------------------------------------------


def decode_openapi_scheme(o: Any, notes: Notes) -> SecurityScheme:
    """An OpenAPI-style scheme; a v1.0 oneof wrapper found in a legacy card is read too."""
    o = obj(o, "security scheme", notes)
    if "type" not in o or has_scheme_wrapper(o):  # a card mixing shapes; in both shapes, the v1.0 one says more
        return decode_wrapped_scheme(o, notes)
    kind = o.get("type")
    description = opt_str(o, "description", "securityScheme", notes)
    if kind not in _SCHEME_WRAPPERS.values():
        notes.add(f"security scheme of unknown type {brief(kind)}")
        return SecurityScheme(type="unknown", description=description)
    return _scheme(kind, o, o.get("in"), "oidc" if kind == "openIdConnect" else kind, description, notes)


def _scheme(
    kind: str, o: dict[str, Any], where: Any, label: str, description: str | None, notes: Notes
) -> SecurityScheme:
    """One scheme's fields, named alike in both shapes (only an API key's location is `in` in one, `location` in
    the other); `label` names the scheme in notes."""
    if kind == "apiKey":
        if where not in ("header", "query", "cookie"):
            notes.add(f"apiKey scheme with location {brief(where)}; header assumed")
            where = "header"
        return SecurityScheme(
            type="apiKey", location=where, param_name=opt_str(o, "name", label, notes), description=description
        )
    if kind == "http":
        return SecurityScheme(
            type="http",
            scheme=opt_str(o, "scheme", label, notes),
            bearer_format=opt_str(o, "bearerFormat", label, notes),
            description=description,
        )
    if kind == "oauth2":
        return SecurityScheme(
            type="oauth2",
            flows=opt_dict(o, "flows", label, notes),
            oauth2_metadata_url=opt_str(o, "oauth2MetadataUrl", label, notes),
            description=description,
        )
    if kind == "openIdConnect":
        return SecurityScheme(
            type="openIdConnect",
            open_id_connect_url=opt_str(o, "openIdConnectUrl", label, notes),
            description=description,
        )
    return SecurityScheme(type="mutualTLS", description=description)


def decode_scope_lists(value: Any, what: str, notes: Notes) -> list[dict[str, list[str]]]:
    if value is None:
        return []
    if not isinstance(value, list):
        notes.add(f"{what} should be a list of requirements")
        return []
    out = []
    for req in value:
        if isinstance(req, dict) and all(isinstance(v, list) for v in req.values()):
            out.append({str(k): [str(s) for s in v if not isinstance(s, dict | list)] for k, v in req.items()})
        else:
            notes.add(f"{what} entry is not {{scheme: [scopes]}}; ignored")
    return out


def decode_skill(o: Any, notes: Notes, security_key: str = "security") -> Skill:
    o = obj(o, "skill", notes)
    skill_id = req_str(o, "id", "skill", notes)
    return Skill(
        id=skill_id,
        name=opt_str(o, "name", "skill", notes) or skill_id,
        description=opt_str(o, "description", "skill", notes) or "",
        tags=str_list(o, "tags", "skill", notes) or [],
        examples=str_list(o, "examples", "skill", notes) or [],
        input_modes=str_list(o, "inputModes", "skill", notes),
        output_modes=str_list(o, "outputModes", "skill", notes),
        security=decode_scope_lists(o.get(security_key), "skill.security", notes) or None,
    )


def decode_capabilities(o: Any, notes: Notes) -> Capabilities:
    if o is None:
        return Capabilities()
    if not isinstance(o, dict):
        notes.add(f"capabilities should be an object, got {brief(o)}; none assumed")
        return Capabilities()
    extensions = []
    for ext in opt_list(o, "extensions", "capabilities", notes) or []:
        if isinstance(ext, dict) and isinstance(ext.get("uri"), str):
            extensions.append(
                Extension(
                    uri=ext["uri"],
                    description=opt_str(ext, "description", "ext", notes),
                    required=opt_bool(ext, "required", "ext", notes),
                    params=opt_dict(ext, "params", "ext", notes),
                )
            )
        else:
            notes.add("capabilities.extensions entry without a uri; ignored")
    return Capabilities(
        streaming=opt_bool(o, "streaming", "capabilities", notes),
        push_notifications=opt_bool(o, "pushNotifications", "capabilities", notes),
        state_transition_history=opt_bool(o, "stateTransitionHistory", "capabilities", notes),
        extended_card=opt_bool(o, "extendedAgentCard", "capabilities", notes),
        extensions=extensions or None,
    )


def decode_provider(o: Any, notes: Notes) -> Provider | None:
    if not isinstance(o, dict):
        return None
    return Provider(
        organization=opt_str(o, "organization", "provider", notes) or "", url=opt_str(o, "url", "provider", notes)
    )


# --- the v1.0 oneof shapes ----------------------------------------------------------------------------

_SCHEME_WRAPPERS = {
    "apiKeySecurityScheme": "apiKey",
    "httpAuthSecurityScheme": "http",
    "oauth2SecurityScheme": "oauth2",
    "openIdConnectSecurityScheme": "openIdConnect",
    "mtlsSecurityScheme": "mutualTLS",
}


def has_scheme_wrapper(o: dict[str, Any]) -> bool:
    """Whether a scheme carries the v1.0 oneof wrapper (perhaps beside the v0.3 `type` shape)."""
    return any(k in o for k in _SCHEME_WRAPPERS)


def decode_wrapped_scheme(o: Any, notes: Notes) -> SecurityScheme:
    """A oneof wrapper; an OpenAPI-style `type` scheme found in a v1.0 card is read too. A scheme in both shapes
    (a2a-sdk 1.x publishes each twice) is read from the wrapper: the v0.3 shape cannot say everything (it has no
    device code flow, no pkceRequired), so the copy made for v0.3 clients is the poorer one."""
    o = obj(o, "security scheme", notes)
    keys = [k for k in _SCHEME_WRAPPERS if k in o]
    if not keys and "type" in o:
        return decode_openapi_scheme(o, notes)
    if not keys:
        notes.add(f"security scheme of unknown shape ({', '.join(f'{k:.40}' for k in list(o)[:4])})")
        return SecurityScheme(type="unknown")
    inner = obj(o[keys[0]], keys[0], notes)
    kind = _SCHEME_WRAPPERS[keys[0]]
    description = opt_str(inner, "description", kind, notes)
    return _scheme(kind, inner, inner.get("location", "header"), kind, description, notes)


def decode_schemes_requirements(value: Any, what: str, notes: Notes) -> list[dict[str, list[str]]]:
    """`[{"schemes": {name: {"list": [scopes]}}}]` -> `[{name: [scopes]}]`."""
    if value is None:
        return []
    if not isinstance(value, list):
        notes.add(f"{what} should be a list")
        return []
    out = []
    for req in value:
        schemes = req.get("schemes") if isinstance(req, dict) else None
        if not isinstance(schemes, dict):
            notes.add(f"{what} entry without a schemes map; ignored")
            continue
        entry = {}
        for name, scopes in schemes.items():
            listed = scopes.get("list", []) if isinstance(scopes, dict) else scopes
            entry[str(name)] = (
                [str(s) for s in listed if not isinstance(s, dict | list)] if isinstance(listed, list) else []
            )
        out.append(entry)
    return out
