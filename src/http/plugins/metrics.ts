import { timingSafeEqual, createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Container } from '../../container.ts';
import { AppError } from '../../lib/errors.ts';
import { said } from '../request-messages.ts';

/**
 * `/metrics` in Prometheus's text format, served only when METRICS_TOKEN is set and only to
 * `Authorization: Bearer <token>`: the figures (queue depths per webhook endpoint, traffic per
 * route) are the operator's, not the public's. Request counts and latency are recorded per
 * route pattern (`/api/v1/public/quotes/:id`), never per raw URL, so the label set is bounded;
 * queue, outbox, print and pool figures are read when scraped.
 */
export function registerMetrics(app: FastifyInstance, c: Container): void {
  const token = c.config.metricsToken;
  if (!token) return;
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'portico' });
  collectDefaultMetrics({ register: registry, prefix: 'portico_' });

  const requests = new Counter({
    name: 'portico_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'portico_http_request_duration_seconds',
    help: 'Time from request to response sent, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    const status = reply.statusCode;
    requests.inc({ method: request.method, route, status: String(status) });
    latency.observe(
      { method: request.method, route, status_class: `${Math.floor(status / 100)}xx` },
      reply.elapsedTime / 1000,
    );
  });

  const now = () => c.clock.now().toISOString();
  const perEndpoint = (name: string, help: string, pick: (e: EndpointFigures) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['endpoint'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const e of await queue()) this.set({ endpoint: e.endpointId }, pick(e));
      },
    });
  // One query per scrape feeds the four per-endpoint gauges.
  let cached: { at: number; value: Promise<EndpointFigures[]> } | null = null;
  const queue = () => {
    if (!cached || Date.now() - cached.at > 1000) cached = { at: Date.now(), value: c.operations.webhookQueue(now()) };
    return cached.value;
  };
  perEndpoint('portico_webhook_queue_pending', 'Webhook deliveries waiting to be sent, per endpoint', (e) => e.pending);
  perEndpoint(
    'portico_webhook_queue_retrying',
    'Pending webhook deliveries that failed at least once, per endpoint',
    (e) => e.retrying,
  );
  perEndpoint('portico_webhook_deliveries_failed', 'Webhook deliveries given up on, per endpoint', (e) => e.failed);
  perEndpoint(
    'portico_webhook_queue_lag_seconds',
    'How long the oldest due webhook delivery has waited past its time, per endpoint',
    (e) => e.lagSeconds,
  );
  // One query per scrape feeds both outbox gauges, per lane.
  let outboxRead: { at: number; value: ReturnType<Container['operations']['emailOutbox']> } | null = null;
  const outbox = () => {
    if (!outboxRead || Date.now() - outboxRead.at > 1000)
      outboxRead = { at: Date.now(), value: c.operations.emailOutbox(now()) };
    return outboxRead.value;
  };
  new Gauge({
    name: 'portico_email_outbox_pending',
    help: 'E-mails waiting to be sent, per lane (customer: documents and replies; staff: inquiry digests)',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      for (const [lane, state] of Object.entries(await outbox())) this.set({ lane }, state.pending);
    },
  });
  new Gauge({
    name: 'portico_email_outbox_age_seconds',
    help: 'How long the oldest due e-mail has waited past its time, per lane',
    labelNames: ['lane'] as const,
    registers: [registry],
    async collect() {
      for (const [lane, state] of Object.entries(await outbox())) this.set({ lane }, state.ageSeconds);
    },
  });
  new Gauge({
    name: 'portico_print_queue',
    help: 'Quotation PDFs in the print pool: running, waiting for a thread, and places taken (of PDF_WORKERS + PDF_QUEUE_MAX)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const s = c.prints.stats();
      this.set({ state: 'running' }, s.running);
      this.set({ state: 'waiting' }, s.waiting);
      this.set({ state: 'admitted' }, s.admitted);
    },
  });
  if (c.database.stats())
    new Gauge({
      name: 'portico_db_pool_connections',
      help: 'PostgreSQL pool: connections open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = c.database.stats();
        if (!stats) return;
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });

  app.get('/metrics', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    if (!metricsTokenGiven(c, request)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new AppError('unauthenticated', said('error.auth.metricsMissing'));
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/**
 * Whether the request carries `Authorization: Bearer <METRICS_TOKEN>` (the scheme in any case,
 * RFC 9110 §11.1); never when no token is configured. Compared as digests: equal length,
 * constant time, whatever the caller sends.
 */
export function metricsTokenGiven(c: Container, request: FastifyRequest): boolean {
  const token = c.config.metricsToken;
  if (!token) return false;
  const given = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(given), digest(token));
}

interface EndpointFigures {
  endpointId: string;
  pending: number;
  retrying: number;
  failed: number;
  lagSeconds: number;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
