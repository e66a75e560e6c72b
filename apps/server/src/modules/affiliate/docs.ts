import { z } from 'zod';
import {
  API_KEY_HEADER,
  LEAD_INTAKE_FIELDS,
  LEAD_INTAKE_PATH,
  LEAD_INTAKE_PER_MINUTE,
  LEAD_INTAKE_WRONG_KEYS,
  LeadIntakeRequest,
} from '@platform/domain';

interface FieldSchema {
  type?: string;
  maxLength?: number;
  pattern?: string;
  anyOf?: FieldSchema[];
}

/** The field table, read from the same zod schema that validates the request and feeds the OpenAPI document. */
function fieldRows(): string[] {
  const schema = z.toJSONSchema(LeadIntakeRequest, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, FieldSchema>;
    required?: string[];
  };
  return Object.entries(schema.properties).map(([name, s]) => {
    const text = s.anyOf?.find((a) => a.type === 'string') ?? s;
    const required = schema.required?.includes(name) ? 'yes' : name === 'firstName' ? 'unless fullName' : 'no';
    const description = LEAD_INTAKE_FIELDS[name as keyof typeof LEAD_INTAKE_FIELDS] ?? '';
    return `| \`${name}\` | text | ${required} | ${text.maxLength ?? ''} | ${description.replace(/\|/g, '\\|')} |`;
  });
}

const EXAMPLE = {
  firstName: 'Hannah',
  lastName: 'Brown',
  email: 'hannah.brown@example.com',
  phone: '+44 7700 900123',
  country: 'United Kingdom',
  city: 'Leeds',
  funnelLink: 'https://landing.example.com/offer',
  reference: 'campaign-42',
  leadSourceId: 'click-8812',
};

/**
 * The lead-intake API as a Markdown document (the API Key page's Documentation download). Built from the same facts
 * as the route and its OpenAPI entry: path, header, field schema and limits, so it cannot drift from what is served.
 */
export function intakeDocument(appName: string, appUrl: string): string {
  const url = `${appUrl.replace(/\/+$/, '')}/api${LEAD_INTAKE_PATH}`;
  const body = JSON.stringify(EXAMPLE, null, 2);
  return `# ${appName}: lead-intake API

Send your leads to ${appName} from your own systems. Each lead you post lands in your Leads list, owned by you,
exactly as if you had added it on screen.

## Your API key

Generate your key on the **API Key** page of your back office. It is shown **once**, when it is generated: copy it
then and keep it on your server (an environment variable or a secrets store). Never put it in a web page or a mobile
app, where anyone could read it. Generating a new key stops the old one at once.

Send the key in the \`${API_KEY_HEADER}\` header of every request.

## Posting a lead

\`POST ${url}\`

Headers: \`${API_KEY_HEADER}: <your key>\` and \`Content-Type: application/json\`. The body is one lead:

| Field | Type | Required | Max length | Meaning |
|---|---|---|---|---|
${fieldRows().join('\n')}

Unknown fields are ignored. Empty text counts as not given.

## Answers

| Status | Meaning | Body |
|---|---|---|
| 201 | The lead was created. | \`{"message": "Lead received", "id": 123, "created": true}\` |
| 200 | You already sent a lead with this email (it is still in your list): nothing new was created. | \`{"message": "Lead already received", "id": 123, "created": false}\` |
| 400 | A field is missing or not valid. | \`{"message": "Invalid email", "errors": {"email": "Invalid email"}}\` |
| 401 | The key is missing or not valid (for example, replaced by a new one). | \`{"message": "..."}\` |
| 429 | Too many requests: wait the seconds the \`Retry-After\` header gives, then retry. | \`{"message": "..."}\` |

Posting the same lead again is safe: a retry after a network error never creates a second lead. The email decides
what "the same lead" is (letter case does not matter).

## Limits

- ${LEAD_INTAKE_PER_MINUTE} requests a minute per key.
- ${LEAD_INTAKE_WRONG_KEYS} requests with a wrong key from one network address in 15 minutes, after which that address
  is refused for a while (429).
- One lead per request; bodies up to 64 KB.

## Examples

Post a lead:

\`\`\`bash
curl -sS -X POST '${url}' \\
  -H '${API_KEY_HEADER}: YOUR_API_KEY' \\
  -H 'Content-Type: application/json' \\
  -d '${body.replace(/'/g, "'\\''")}'
\`\`\`

A lead with only a full name and an email:

\`\`\`bash
curl -sS -X POST '${url}' \\
  -H '${API_KEY_HEADER}: YOUR_API_KEY' \\
  -H 'Content-Type: application/json' \\
  -d '{"fullName": "Tom Lee", "email": "tom.lee@example.com"}'
\`\`\`

From Node.js (18 or later):

\`\`\`js
const res = await fetch('${url}', {
  method: 'POST',
  headers: { '${API_KEY_HEADER}': process.env.LEADS_API_KEY, 'Content-Type': 'application/json' },
  body: JSON.stringify({ fullName: 'Tom Lee', email: 'tom.lee@example.com', country: 'Spain' }),
});
if (res.status === 429) { /* wait Number(res.headers.get('retry-after')) seconds and retry */ }
const { id, created } = await res.json();
\`\`\`

The machine-readable description of this API (OpenAPI) is at \`${appUrl.replace(/\/+$/, '')}/api/docs\`.
`;
}
