import type { Clock } from '../../lib/clock.ts';
import type { AdminNoticeRepos, NotificationsService } from '../notifications/index.ts';
import type { EndpointWork } from './attempt-outcome.ts';
import type { EndpointRow, WebhooksRepository } from './webhooks.repository.ts';

/** The endpoints' changes, and the admins told about them. */
export type EndpointWorkRepos = { webhooks: WebhooksRepository } & AdminNoticeRepos;

/** Carries out what a batch of recorded outcomes means for their endpoints, in the batch's transaction. */
export async function applyEndpointWork(
  repos: EndpointWorkRepos,
  work: readonly EndpointWork[],
  deps: { notifications: NotificationsService; clock: Clock; logger: { warn(obj: object, msg: string): void } },
): Promise<void> {
  for (const w of work) {
    if (w.kind === 'give-up') {
      const { outcome: o } = w;
      const endpoint = o.endpoint!;
      await deps.notifications.notifyAdmins(repos, endpoint.company_id, {
        kind: 'webhook.delivery_failed',
        title: `A webhook to ${endpoint.description ?? endpoint.url ?? endpoint.kind} was given up`,
        body: `Event ${o.delivery.event_id} (${o.delivery.event_type}) failed ${o.attemptNo} times; last error: ${o.result.error ?? o.result.statusCode}. Redeliver it from developer settings once the receiver works.`,
        params: {
          target: endpoint.description ?? endpoint.url ?? endpoint.kind,
          eventId: o.delivery.event_id,
          eventType: o.delivery.event_type,
          attempts: String(o.attemptNo),
          error: String(o.result.error ?? o.result.statusCode),
        },
        subject: { type: 'webhook_delivery', id: o.delivery.id },
      });
    } else if (w.kind === 'disable') {
      await disableEndpoint(repos, w.endpoint, w.reason, deps);
    } else if (w.kind === 'mark-failing') {
      await repos.webhooks.markFailing(w.endpoint.company_id, w.endpoint.id, w.since);
    } else {
      await repos.webhooks.updateEndpoint(w.endpoint.company_id, w.endpoint.id, { failing_since: null });
    }
  }
}

async function disableEndpoint(
  repos: EndpointWorkRepos,
  endpoint: EndpointRow,
  reason: string,
  deps: Parameters<typeof applyEndpointWork>[2],
): Promise<void> {
  // Several deliveries may fail the same way, in one batch or in several: the first disables and tells, once.
  if (!(await repos.webhooks.disableEndpoint(endpoint.company_id, endpoint.id, reason, deps.clock.now().toISOString())))
    return;
  await repos.webhooks.cancelPending(endpoint.company_id, endpoint.id);
  await deps.notifications.notifyAdmins(repos, endpoint.company_id, {
    kind: 'webhook.disabled',
    title: `Webhook ${endpoint.description ?? endpoint.url ?? endpoint.kind} was disabled`,
    body: `Deliveries stopped: ${reason}. Fix the receiver, then enable the endpoint again in developer settings.`,
    params: { target: endpoint.description ?? endpoint.url ?? endpoint.kind, reason },
    subject: { type: 'webhook_endpoint', id: endpoint.id },
  });
  deps.logger.warn({ endpointId: endpoint.id, reason }, 'webhook endpoint disabled');
}
