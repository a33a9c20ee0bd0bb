// One `coral ask --resume` as a separate process: loads the conversation, says "loaded", waits for a
// line on stdin (so that a test can make every writer hold the same old copy), then saves its turn.
import { createInterface } from 'node:readline';
import { appendTurn, loadConversation } from '../../src/agent/conversation.js';

const [id, question] = process.argv.slice(2);
const c = loadConversation(id);
const before = c.messages.length;
c.messages.push({ role: 'user', text: question }, { role: 'model', text: `answer to ${question}`, toolCalls: [] });
process.stdout.write('loaded\n');
const lines = createInterface({ input: process.stdin });
lines.once('line', () => {
  appendTurn(c, c.messages.slice(before));
  process.stdout.write('saved\n');
  lines.close();
});
