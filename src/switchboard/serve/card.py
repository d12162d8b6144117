"""A served workflow's agent card: what it is, how to call it, and which inputs it takes.

One skill whose description lists the inputs (name, required or default, description) and whose examples
are messages that start a run; the same inputs as a JSON schema in the INPUTS_EXTENSION capability
extension, for programs. The interfaces are the SDK's bindings at the agent's base URL: JSON-RPC 1.0 and
0.3 (the SDK's compat mode) at the URL itself, HTTP+JSON under `rest`.
"""

from __future__ import annotations

import json
from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf import struct_pb2

from ..workflow.spec import Workflow

INPUTS_EXTENSION = "urn:a2a-switchboard:workflow-inputs:v1"
API_KEY_HEADER = "X-API-Key"
PROVIDER = "a2a-switchboard serve"
REST_PATH = "rest"


def required_inputs(workflow: Workflow) -> list[str]:
    """Inputs a caller must give: required and without a default."""
    return [name for name, spec in workflow.inputs.items() if spec.required and spec.default is None]


def text_input(workflow: Workflow) -> str | None:
    """The input a plain-text message fills: the one required input, when there is exactly one."""
    required = required_inputs(workflow)
    return required[0] if len(required) == 1 else None


def input_schema(workflow: Workflow) -> dict[str, Any]:
    """The inputs as a JSON schema (every value a string; the caller's other JSON values arrive as JSON text)."""
    properties: dict[str, Any] = {}
    for name, spec in workflow.inputs.items():
        prop: dict[str, Any] = {"type": "string"}
        if spec.description:
            prop["description"] = spec.description
        if spec.default is not None:
            prop["default"] = spec.default
        properties[name] = prop
    return {
        "type": "object",
        "properties": properties,
        "required": required_inputs(workflow),
        "additionalProperties": False,
    }


def _example_value(name: str) -> str:
    return f"<{name}>"


def examples(workflow: Workflow) -> list[str]:
    """Messages that start a run: the data-part form, and plain text when one input takes it."""
    required = required_inputs(workflow)
    shown = {name: _example_value(name) for name in required} or {
        name: _example_value(name) for name in list(workflow.inputs)[:1]
    }
    out = [json.dumps({"inputs": shown}, ensure_ascii=False)]
    single = text_input(workflow)
    if single is not None:
        out.insert(0, _example_value(single))
    return out


def skill_description(workflow: Workflow) -> str:
    lines = [workflow.description.strip() or f"Runs the workflow {workflow.name}."]
    lines.append(f"Steps: {', '.join(s.name for s in workflow.steps)}.")
    if workflow.inputs:
        lines.append('Inputs (send a data part {"inputs": {NAME: VALUE, ...}}; non-string values arrive as JSON text):')
        for name, spec in workflow.inputs.items():
            need = "required" if spec.required and spec.default is None else f"default {spec.default or '(empty)'!r}"
            about = f": {spec.description}" if spec.description else ""
            lines.append(f"- {name} ({need}){about}")
    else:
        lines.append("It takes no inputs: any message starts a run.")
    single = text_input(workflow)
    if single is not None:
        lines.append(f"A message with only text fills {single}.")
    lines.append(
        "Missing or unknown inputs: the task is rejected, its message naming them. Steps that ask a question "
        "make the task input-required (metadata.step and metadata.agent name them, and the question's first "
        "line says so); answer in the same task, with "
        'metadata {"step": NAME} to pick the step when several wait. The outputs end the task as one artifact.'
    )
    return "\n".join(lines)


def build_card(workflow: Workflow, url: str, *, api_key: bool = False) -> pb.AgentCard:
    """The card of `workflow` served at base URL `url` (with a trailing slash)."""
    params = struct_pb2.Struct()
    params.update({"inputSchema": input_schema(workflow), "textInput": text_input(workflow) or ""})
    card = pb.AgentCard(
        name=workflow.name,
        description=workflow.description.strip() or f"The workflow {workflow.name}, served by a2a-switchboard.",
        supported_interfaces=[
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="1.0"),
            pb.AgentInterface(url=url + REST_PATH, protocol_binding="HTTP+JSON", protocol_version="1.0"),
            pb.AgentInterface(url=url, protocol_binding="JSONRPC", protocol_version="0.3"),
        ],
        provider=pb.AgentProvider(organization=PROVIDER, url=url),
        version=f"1.0.0+{workflow.digest[:12]}" if workflow.digest else "1.0.0",
        capabilities=pb.AgentCapabilities(
            streaming=True,
            push_notifications=False,
            extensions=[
                pb.AgentExtension(
                    uri=INPUTS_EXTENSION,
                    description="The workflow's inputs as a JSON schema (params.inputSchema).",
                    required=False,
                    params=params,
                )
            ],
        ),
        default_input_modes=["text/plain", "application/json"],
        default_output_modes=["text/plain", "application/json"],
        skills=[
            pb.AgentSkill(
                id=workflow.name,
                name=workflow.name,
                description=skill_description(workflow),
                examples=examples(workflow),
                tags=["workflow", "a2a-switchboard"],
            )
        ],
    )
    if api_key:
        scheme = pb.APIKeySecurityScheme(location="header", name=API_KEY_HEADER)
        card.security_schemes["apiKey"].CopyFrom(
            pb.SecurityScheme(
                api_key_security_scheme=scheme,
            )
        )
        card.security_requirements.append(pb.SecurityRequirement(schemes={"apiKey": pb.StringList()}))
    return card
