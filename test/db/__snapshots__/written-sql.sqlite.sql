-- outbox.insertEvent
insert into webhook_events (id, company_id, location_id, type, payload, created_at, mode) values (?, ?, ?, ?, ?, ?, ?);

-- outbox.listSubscriptions
select id, events from webhook_endpoints where company_id = ? and enabled = ?;

-- outbox.insertDeliveries (3 rows: 2 + 1)
insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- outbox.insertDeliveries (3 rows: 2 + 1)
insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- webhooks.findEndpoint
select * from webhook_endpoints where company_id = ? and id = ?;

-- inquiries.insertWithNotifications (2 inquiries, 1 notification, 1 e-mail)
insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (2 inquiries, 1 notification, 1 e-mail)
insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (2 inquiries, 1 notification, 1 e-mail)
insert into email_messages (id, company_id, to_address, subject, text_body, status, attempts, next_attempt_at, locked_until, last_error, sent_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (1 inquiry)
insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)
insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)
insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)
insert into webhook_events (id, company_id, location_id, type, payload, created_at, mode) values (?, ?, ?, ?, ?, ?, ?);

-- inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)
insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- inquiries.readBatchContext (2 companies, 2 locations)
select 0 as part, company_id, id, value from (select company_id, id, email as value from users where company_id in (?, ?) and role in (?, ?)) as part_0 union all select 1 as part, company_id, id, value from (select company_id, id, name as value from locations where company_id in (?, ?) and id in (?, ?)) as part_1 union all select 2 as part, company_id, id, value from (select company_id, id, events as value from webhook_endpoints where company_id in (?, ?) and enabled = ?) as part_2;

-- notifications.insertNotifications (2 rows)
insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- companies.listRecipients (2 companies, 2 roles)
select id, company_id, email from users where company_id in (?, ?) and role in (?, ?) order by id;

-- queue.claim
pragma busy_timeout;

-- queue.claim
pragma wal_autocheckpoint;

-- queue.claim
pragma synchronous;

-- queue.claim
pragma busy_timeout = 0;

-- queue.claim
pragma synchronous = 1;

-- queue.claim
begin immediate;

-- queue.claim
pragma wal_autocheckpoint = 10000;

-- queue.claim
  update webhook_deliveries set locked_until = ?, locked_by = ?
  where id in (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until < ?)
    order by next_attempt_at limit ?
  )
  returning id, company_id, event_id, endpoint_id, attempts, next_attempt_at;

-- queue.claim
commit;

-- queue.claim
pragma busy_timeout = 5000;

-- queue.claim
pragma wal_autocheckpoint = 1000;

-- queue.claim
pragma synchronous = 2;

-- queue.claim
select id, type, payload from webhook_events where id in (select value from json_each(?));

-- queue.claim (passing over 2 endpoints)
pragma busy_timeout = 0;

-- queue.claim (passing over 2 endpoints)
pragma synchronous = 1;

-- queue.claim (passing over 2 endpoints)
begin immediate;

-- queue.claim (passing over 2 endpoints)
pragma wal_autocheckpoint = 10000;

-- queue.claim (passing over 2 endpoints)
  update webhook_deliveries set locked_until = ?, locked_by = ?
  where id in (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= ? and (locked_until is null or locked_until < ?)
      and endpoint_id not in (select value from json_each(?))
    order by next_attempt_at limit ?
  )
  returning id, company_id, event_id, endpoint_id, attempts, next_attempt_at;

-- queue.claim (passing over 2 endpoints)
commit;

-- queue.claim (passing over 2 endpoints)
pragma busy_timeout = 5000;

-- queue.claim (passing over 2 endpoints)
pragma wal_autocheckpoint = 1000;

-- queue.claim (passing over 2 endpoints)
pragma synchronous = 2;

-- queue.claim (passing over 2 endpoints)
select id, type, payload from webhook_events where id in (select value from json_each(?));

-- queue.record (1 outcome)
pragma busy_timeout = 0;

-- queue.record (1 outcome)
pragma synchronous = 1;

-- queue.record (1 outcome)
begin immediate;

-- queue.record (1 outcome)
pragma wal_autocheckpoint = 10000;

-- queue.record (1 outcome)
    with v (id, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at) as (values (?, ?, ?, ?, ?, ?, ?))
    update webhook_deliveries
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    where webhook_deliveries.id = v.id and webhook_deliveries.locked_by = ?
    returning webhook_deliveries.id;

-- queue.record (1 outcome)
insert into webhook_attempts (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- queue.record (1 outcome)
commit;

-- queue.record (1 outcome)
pragma busy_timeout = 5000;

-- queue.record (1 outcome)
pragma wal_autocheckpoint = 1000;

-- queue.record (1 outcome)
pragma synchronous = 2;

-- queue.record (3 outcomes: 2 + 1)
pragma busy_timeout = 0;

-- queue.record (3 outcomes: 2 + 1)
pragma synchronous = 1;

-- queue.record (3 outcomes: 2 + 1)
begin immediate;

-- queue.record (3 outcomes: 2 + 1)
pragma wal_autocheckpoint = 10000;

-- queue.record (3 outcomes: 2 + 1)
    with v (id, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at) as (values (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?))
    update webhook_deliveries
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    where webhook_deliveries.id = v.id and webhook_deliveries.locked_by = ?
    returning webhook_deliveries.id;

-- queue.record (3 outcomes: 2 + 1)
    with v (id, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at) as (values (?, ?, ?, ?, ?, ?, ?))
    update webhook_deliveries
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    where webhook_deliveries.id = v.id and webhook_deliveries.locked_by = ?
    returning webhook_deliveries.id;

-- queue.record (3 outcomes: 2 + 1)
insert into webhook_attempts (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);

-- queue.record (3 outcomes: 2 + 1)
commit;

-- queue.record (3 outcomes: 2 + 1)
pragma busy_timeout = 5000;

-- queue.record (3 outcomes: 2 + 1)
pragma wal_autocheckpoint = 1000;

-- queue.record (3 outcomes: 2 + 1)
pragma synchronous = 2;
