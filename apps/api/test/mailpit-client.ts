import { waitFor } from '@cfdi/testkit';

export interface MailpitSummary {
  ID: string;
  To: { Address: string }[];
  Subject: string;
}

export interface MailpitMessage extends MailpitSummary {
  MessageID: string;
  Text: string;
  HTML: string;
  Attachments: { PartID: string; FileName: string; ContentType: string }[];
}

/** What Mailpit received, read through its HTTP API (`/api/v1`). */
export function mailpitClient(webUrl: string) {
  const json = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${webUrl}/api/v1${path}`);
    if (!response.ok) throw new Error(`Mailpit ${path}: ${response.status}`);
    return (await response.json()) as T;
  };
  const messagesTo = async (address: string) =>
    (await json<{ messages: MailpitSummary[] }>('/messages?limit=500')).messages.filter((m) =>
      m.To.some((to) => to.Address === address),
    );
  return {
    messagesTo,
    /** Waits until `address` received at least `count` messages; returns them, full. */
    async waitForMessages(address: string, count = 1): Promise<MailpitMessage[]> {
      const summaries = await waitFor(
        async () => {
          const found = await messagesTo(address);
          return found.length >= count ? found : undefined;
        },
        { timeoutMs: 60_000, what: `${count} message(s) to ${address} in Mailpit` },
      );
      return Promise.all(summaries.map((m) => json<MailpitMessage>(`/message/${m.ID}`)));
    },
    async part(messageId: string, partId: string): Promise<Buffer> {
      const response = await fetch(`${webUrl}/api/v1/message/${messageId}/part/${partId}`);
      return Buffer.from(await response.arrayBuffer());
    },
  };
}
