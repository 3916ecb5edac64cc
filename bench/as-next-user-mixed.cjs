// Loaded by autocannon's worker thread (bench/mixed.ts, the saturated mix with writes): each request goes as the
// next user of `request.cookies` in turn; a vote or an answer gets its question and, for an answer, a fresh id.
let next = 0;
let turn = 0;
module.exports = (request) => {
  const cookie = request.cookies[next++ % request.cookies.length];
  const headers = { ...request.headers, cookie };
  if (!request.write) return { ...request, headers };
  const question = request.questions[turn++ % request.questions.length];
  if (request.write === 'vote')
    return {
      ...request,
      headers,
      path: `/api/questions/${question}/vote`,
      body: JSON.stringify({ value: turn % 2 ? 1 : -1 }),
    };
  return {
    ...request,
    headers,
    path: `/api/questions/${question}/answers`,
    body: JSON.stringify({ id: crypto.randomUUID(), text: `An answer under load, ${turn}.` }),
  };
};
