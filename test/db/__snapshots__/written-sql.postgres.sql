-- outbox.insertEvent
insert into webhook_events (id, company_id, location_id, type, payload, created_at, mode) values ($1, $2, $3, $4, $5, $6, $7);

-- outbox.listSubscriptions
select id, events from webhook_endpoints where company_id = $1 and enabled = $2;

-- outbox.insertDeliveries (3 rows: 2 + 1)
insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13), ($14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26);

-- outbox.insertDeliveries (3 rows: 2 + 1)
insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13);

-- outbox.announce
select pg_notify($1, '');

-- webhooks.findEndpoint
select * from webhook_endpoints where company_id = $1 and id = $2;

-- inquiries.insertWithNotifications (2 inquiries, 1 notification, 1 e-mail)
with part_1 as (insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) select id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason from json_populate_recordset(null::inquiries, $1)), part_2 as (insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) select id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params from json_populate_recordset(null::notifications, $2)) insert into email_messages (id, company_id, to_address, subject, text_body, status, attempts, next_attempt_at, locked_until, last_error, sent_at, created_at) select id, company_id, to_address, subject, text_body, status, attempts, next_attempt_at, locked_until, last_error, sent_at, created_at from json_populate_recordset(null::email_messages, $3);

-- inquiries.insertWithNotifications (1 inquiry)
insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) select id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason from json_populate_recordset(null::inquiries, $1);

-- inquiries.insertWithNotifications (1 inquiry, 1 notification, its event, 1 delivery)
with part_1 as (insert into inquiries (id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason) select id, company_id, location_id, api_key_id, topic, subject, message, email, phone, name, product_photo_url, created_at, handled_at, handled_by, mode, spam_reason from json_populate_recordset(null::inquiries, $1)), part_2 as (insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) select id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params from json_populate_recordset(null::notifications, $2)), part_3 as (insert into webhook_events (id, company_id, location_id, type, payload, created_at, mode) select id, company_id, location_id, type, payload, created_at, mode from json_populate_recordset(null::webhook_events, $3)) insert into webhook_deliveries (id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at) select id, company_id, event_id, endpoint_id, status, attempts, next_attempt_at, locked_until, locked_by, last_status_code, last_error, delivered_at, created_at from json_populate_recordset(null::webhook_deliveries, $4);

-- inquiries.readBatchContext (2 companies, 2 locations)
select 0 as part, company_id, id, value from (select company_id, id, email as value from users where company_id in ($1, $2) and role in ($3, $4)) as part_0 union all select 1 as part, company_id, id, value from (select company_id, id, name as value from locations where company_id in ($5, $6) and id in ($7, $8)) as part_1 union all select 2 as part, company_id, id, value from (select company_id, id, events as value from webhook_endpoints where company_id in ($9, $10) and enabled = $11) as part_2;

-- notifications.insertNotifications (2 rows)
insert into notifications (id, company_id, user_id, kind, title, body, subject_type, subject_id, read_at, created_at, message_params) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11), ($12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22);

-- companies.listRecipients (2 companies, 2 roles)
select id, company_id, email from users where company_id in ($1, $2) and role in ($3, $4) order by id;

-- queue.claim
  with due as (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= $1 and (locked_until is null or locked_until < $1)
    order by next_attempt_at limit $2
    for update skip locked
  ), claimed as (
    update webhook_deliveries d set locked_until = $3, locked_by = $4
    from due where d.id = due.id
    returning d.id, d.company_id, d.event_id, d.endpoint_id, d.attempts, d.next_attempt_at
  )
  select claimed.*, e.type as event_type, e.payload
  from claimed join webhook_events e on e.id = claimed.event_id
  order by claimed.next_attempt_at;

-- queue.claim (passing over 2 endpoints)
  with due as (
    select id from webhook_deliveries
    where status = 'pending' and next_attempt_at <= $1 and (locked_until is null or locked_until < $1)
      and endpoint_id <> all($5::text[])
    order by next_attempt_at limit $2
    for update skip locked
  ), claimed as (
    update webhook_deliveries d set locked_until = $3, locked_by = $4
    from due where d.id = due.id
    returning d.id, d.company_id, d.event_id, d.endpoint_id, d.attempts, d.next_attempt_at
  )
  select claimed.*, e.type as event_type, e.payload
  from claimed join webhook_events e on e.id = claimed.event_id
  order by claimed.next_attempt_at;

-- queue.record (1 outcome)
  with v as (
    select * from unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::timestamptz[])
      as v (id, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at)
  ), done as (
    update webhook_deliveries d
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    -- "= any" as well as the join, so the rows are found through the primary key whatever the
    -- planner guesses (a hash join would read the whole table, which only grows)
    where d.id = any($1::text[]) and d.id = v.id and d.locked_by = $8
    returning d.id
  )
  insert into webhook_attempts (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success)
  select a.* from unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[], $16::int[],
                         $17::int[], $18::text[], $19::text[], $20::boolean[])
    as a (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success)
  where a.delivery_id in (select id from done)
  returning delivery_id;

-- queue.record (3 outcomes: 2 + 1)
  with v as (
    select * from unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], $5::int[], $6::text[], $7::timestamptz[])
      as v (id, status, attempts, next_attempt_at, last_status_code, last_error, delivered_at)
  ), done as (
    update webhook_deliveries d
    set status = v.status, attempts = v.attempts, next_attempt_at = v.next_attempt_at, last_status_code = v.last_status_code,
        last_error = v.last_error, delivered_at = v.delivered_at, locked_until = null, locked_by = null
    from v
    -- "= any" as well as the join, so the rows are found through the primary key whatever the
    -- planner guesses (a hash join would read the whole table, which only grows)
    where d.id = any($1::text[]) and d.id = v.id and d.locked_by = $8
    returning d.id
  )
  insert into webhook_attempts (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success)
  select a.* from unnest($9::text[], $10::text[], $11::text[], $12::text[], $13::int[], $14::text[], $15::timestamptz[], $16::int[],
                         $17::int[], $18::text[], $19::text[], $20::boolean[])
    as a (id, company_id, delivery_id, endpoint_id, attempt, worker_id, started_at, duration_ms, status_code, error, response_excerpt, success)
  where a.delivery_id in (select id from done)
  returning delivery_id;
