// Loaded by autocannon's worker thread, which can only `require` a function. Each request books under a new id
// as the next student of `request.cookies` in turn, across all connections, so every student stays under the
// hourly limit however many connections run (autocannon passes a request's unknown fields on to this).
let next = 0;
module.exports = (request) => ({
  ...request,
  headers: { ...request.headers, cookie: request.cookies[next++ % request.cookies.length] },
  body: request.body.replace(/"id":"[^"]*"/, `"id":"${crypto.randomUUID()}"`),
});
