"""Talk to two agents of the demo fleet, then run a two-step workflow built in Python.

switchboard demo --agents-out /tmp/demo-agents.yaml      # in another terminal
python examples/python/talk_and_run.py /tmp/demo-agents.yaml
"""

import asyncio
import sys

from switchboard import Agent, Workflow


async def main(agents_file: str) -> None:
    # One agent, by its name in the agents file: a reply that waits is answered by the next send.
    async with Agent("interviewer", agents_file=agents_file) as interviewer:
        reply = await interviewer.send("hello")
        while reply.waiting:
            print("asked:", reply.question)
            reply = await interviewer.send("Ada" if "name" in reply.question else "1")
        print(reply.state, "-", reply.text)

    # Every event of a turn as it streams in, as `switchboard send --stream -o jsonl` prints them.
    async with Agent("echo", agents_file=agents_file) as echo:
        async for event in echo.stream("ping"):
            print(type(event).__name__)

    # A workflow: the same model and engine as a YAML file, journaled like any run.
    flow = (
        Workflow("greeting", description="Echo a name, then echo the echo")
        .input("who", required=True)
        .agent("echo")
        .step("first", agent="echo", task="hello {{inputs.who}}")
        .step("second", agent="echo", task="{{steps.first.output}} again", depends_on=["first"])
        .output("said", "{{steps.second.output}}")
    )
    result = await flow.run({"who": "Ada"}, agents_file=agents_file)
    print(result.status, result.outputs["said"], result.run_id)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
