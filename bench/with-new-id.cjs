// Loaded by autocannon's worker thread, which can only `require` a function: each request creates anew, under a new id.
module.exports = (request) => ({
  ...request,
  body: request.body.replace(/"id":"[^"]*"/, `"id":"${crypto.randomUUID()}"`),
});
