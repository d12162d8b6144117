"""Push-notification configs, for a transport that makes one call per operation: the same four requests over
JSON-RPC, HTTP+JSON and gRPC at protocol 1.0, only the call differs (`_push_call`). At 0.3 switchboard speaks them
over JSON-RPC (the methods and shapes of a2a-sdk 0.3, converted to and from the 1.0 shape here); the other bindings'
0.3 push routes are refused with a usage error."""

from __future__ import annotations

from typing import Any

from ..cards import Endpoint
from ..errors import InvalidResponseError
from ..wire import v03, v10
from .base import no_push_at


class PushConfigs:
    endpoint: Endpoint
    url: str
    PUSH_AT_03 = False  # JSON-RPC sets it: its 0.3 push methods are the ones switchboard speaks

    async def _push_call(self, op: str, params: dict[str, Any]) -> Any:
        """The answer to `op` as parsed JSON, whatever its shape."""
        raise NotImplementedError

    def _config(self, answer: Any, op: str) -> dict[str, Any]:
        """A TaskPushNotificationConfig is a JSON object; anything else is the agent's mistake, said as such (not a
        crash where the config is read)."""
        if isinstance(answer, dict):
            return answer
        raise InvalidResponseError(
            f"the agent answered {op} with a JSON {type(answer).__name__}, not a push notification config",
            hint="Run with --verbose to see the answer.",
            url=self.url,
        )

    def _at_03(self) -> bool:
        """True for a 0.3 agent this binding speaks push configs to; a usage error for one it does not."""
        if self.endpoint.version == "1.0":
            return False
        if not self.PUSH_AT_03:
            raise no_push_at(self.endpoint.version)
        return True

    def _push_tenant(self) -> str | None:
        return self.endpoint.tenant or None

    async def create_push_config(
        self,
        task_id: str,
        url: str,
        *,
        token: str | None = None,
        config_id: str | None = None,
        authentication: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        op = "CreateTaskPushNotificationConfig"
        if self._at_03():
            params03 = v03.push_config_params(task_id, url, token, config_id, authentication=authentication)
            return v03.decode_push_config(self._config(await self._push_call("push_set", params03), op))
        params = v10.push_config_params(
            task_id, url, token, config_id, tenant=self._push_tenant(), authentication=authentication
        )
        return self._config(await self._push_call("push_set", params), op)

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        op = "GetTaskPushNotificationConfig"
        if self._at_03():
            answer = await self._push_call("push_get", v03.push_id_params(task_id, config_id))
            return v03.decode_push_config(self._config(answer, op))
        params = v10.push_id_params(task_id, config_id, tenant=self._push_tenant())
        return self._config(await self._push_call("push_get", params), op)

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        if self._at_03():
            answer = await self._push_call("push_list", v03.push_id_params(task_id))
            return (
                [v03.decode_push_config(c) for c in answer if isinstance(c, dict)] if isinstance(answer, list) else []
            )
        answer = await self._push_call("push_list", v10.push_id_params(task_id, tenant=self._push_tenant()))
        configs = answer.get("configs", []) if isinstance(answer, dict) else answer  # some servers send the list
        return [c for c in configs if isinstance(c, dict)] if isinstance(configs, list) else []

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        if self._at_03():
            await self._push_call("push_delete", v03.push_id_params(task_id, config_id))
            return
        await self._push_call("push_delete", v10.push_id_params(task_id, config_id, tenant=self._push_tenant()))
