"""Push-notification configs at protocol 1.0, for a transport that makes one call per operation: the same four
requests over JSON-RPC, HTTP+JSON and gRPC, only the call differs (`_push_call`)."""

from __future__ import annotations

from typing import Any

from ..cards import Endpoint
from ..errors import InvalidResponseError
from ..wire import v10
from .base import no_push_at


class PushConfigs:
    endpoint: Endpoint
    url: str

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

    def _push_tenant(self) -> str | None:
        if self.endpoint.version != "1.0":
            raise no_push_at(self.endpoint.version)
        return self.endpoint.tenant or None

    async def create_push_config(
        self, task_id: str, url: str, *, token: str | None = None, config_id: str | None = None
    ) -> dict[str, Any]:
        params = v10.push_config_params(task_id, url, token, config_id, tenant=self._push_tenant())
        return self._config(await self._push_call("push_set", params), "CreateTaskPushNotificationConfig")

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        params = v10.push_id_params(task_id, config_id, tenant=self._push_tenant())
        return self._config(await self._push_call("push_get", params), "GetTaskPushNotificationConfig")

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        answer = await self._push_call("push_list", v10.push_id_params(task_id, tenant=self._push_tenant()))
        configs = answer.get("configs", []) if isinstance(answer, dict) else answer  # some servers send the list
        return [c for c in configs if isinstance(c, dict)] if isinstance(configs, list) else []

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        await self._push_call("push_delete", v10.push_id_params(task_id, config_id, tenant=self._push_tenant()))
