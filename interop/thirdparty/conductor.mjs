// conductor.mjs runs @thinkwell/conductor on its stdin and stdout: the
// client talks to it as to one agent; each argument is a component, a
// command line as the conductor splits it, the last the agent, the others
// proxies in order.
import { Conductor, fromCommands } from "@thinkwell/conductor";
import { createInterface } from "node:readline";

const stdioClient = {
  async connect() {
    const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
    return {
      send(message) {
        process.stdout.write(JSON.stringify(message) + "\n");
      },
      get messages() {
        return {
          async *[Symbol.asyncIterator]() {
            for await (const line of rl) {
              if (line.trim()) yield JSON.parse(line);
            }
          },
        };
      },
      async close() {
        rl.close();
      },
    };
  },
};

const conductor = new Conductor({ instantiator: fromCommands(process.argv.slice(2)), mcpBridgeMode: "disabled" });
await conductor.connect(stdioClient);
process.exit(0);
