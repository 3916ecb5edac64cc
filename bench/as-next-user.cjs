// Loaded by autocannon's worker thread, which can only `require` a function: each request goes as the next user
// of `request.cookies` in turn, across all connections (autocannon passes a request's unknown fields on to this).
let next = 0;
module.exports = (request) => ({
  ...request,
  headers: { ...request.headers, cookie: request.cookies[next++ % request.cookies.length] },
});
