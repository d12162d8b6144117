"""Push-notification configs at protocol 1.0, for a transport that makes one call per operation: the same four
requests over JSON-RPC, HTTP+JSON and gRPC, only the call differs (`_push_call`)."""

from __future__ import annotations

from typing import Any

from ..cards import Endpoint
from ..wire import v10
from .base import no_push_at


class PushConfigs:
    endpoint: Endpoint

    async def _push_call(self, op: str, params: dict[str, Any]) -> Any:
        raise NotImplementedError

    def _push_tenant(self) -> dict[str, str]:
        if self.endpoint.version != "1.0":
            raise no_push_at(self.endpoint.version)
        return {"tenant": self.endpoint.tenant} if self.endpoint.tenant else {}

    async def create_push_config(
        self, task_id: str, url: str, *, token: str | None = None, config_id: str | None = None
    ) -> dict[str, Any]:
        params = v10.push_config_params(task_id, url, token, config_id, **self._push_tenant())
        return await self._push_call("push_set", params)

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        return await self._push_call("push_get", v10.push_id_params(task_id, config_id, **self._push_tenant()))

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        answer = await self._push_call("push_list", v10.push_id_params(task_id, **self._push_tenant()))
        configs = answer.get("configs", []) if isinstance(answer, dict) else answer  # some servers send the list
        return [c for c in configs if isinstance(c, dict)] if isinstance(configs, list) else []

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        await self._push_call("push_delete", v10.push_id_params(task_id, config_id, **self._push_tenant()))
