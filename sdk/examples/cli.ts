/**
 * The walk-through's first steps against a running console (`npm start`, or production):
 *   KLA_BASE_URL=http://127.0.0.1:8787 KLA_API_KEY=kla_… npx tsx sdk/examples/cli.ts [userId]
 * lists the active users and, given a user id, gives that user an e-key on the first door they can get.
 */
import { giveKey, listUsers, signIn } from "./quickstart";

const baseUrl = process.env.KLA_BASE_URL ?? "http://127.0.0.1:8787";
const apiKey = process.env.KLA_API_KEY;
if (!apiKey) throw new Error("Set KLA_API_KEY to an API key (kla_…): Company settings → API keys");

const client = signIn(baseUrl, apiKey);
for (const u of await listUsers(client)) console.log(`${u.id}\t${u.dispay_name}\t${u.e_mail}`);
const userId = Number(process.argv[2]);
if (userId) console.log(await giveKey(client, userId));
