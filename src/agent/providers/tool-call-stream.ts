/**
 * Tool calls rebuilt from streamed chat-completion fragments. OpenAI sends a call's id and name in
 * its first fragment and later fragments with only `index` and more arguments. Ollama sends each
 * call whole, every one with `index: 0` (older builds omit the index): grouping by index alone
 * would glue parallel calls into one. So a fragment starts a new call when it carries an id not
 * seen before, or a name while the call at its index already has one; otherwise it continues the
 * call with its id, else the latest call at its index.
 */
export interface CallFragment {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

export interface AssembledCall {
  id: string;
  name: string;
  args: string;
}

export class ToolCallAssembler {
  private readonly calls: (AssembledCall & { index: number })[] = [];

  add(f: CallFragment): void {
    const index = f.index ?? 0;
    const name = f.function?.name ?? '';
    const byId = f.id ? this.calls.find((c) => c.id === f.id) : undefined;
    const atIndex = [...this.calls].reverse().find((c) => c.index === index);
    let call = byId;
    if (!call && !f.id && atIndex && !(name && atIndex.name)) call = atIndex;
    if (!call) {
      call = { index, id: f.id ?? '', name: '', args: '' };
      this.calls.push(call);
    }
    call.name += name;
    call.args += f.function?.arguments ?? '';
  }

  /** The calls in the order they started, arguments parsed (kept raw when they are not JSON). */
  done(): { id: string; name: string; args: Record<string, unknown> }[] {
    return this.calls.map((c) => {
      let args: Record<string, unknown> = {};
      try {
        args = c.args ? (JSON.parse(c.args) as Record<string, unknown>) : {};
      } catch {
        args = { _unparsed_arguments: c.args };
      }
      return { id: c.id, name: c.name, args };
    });
  }
}
