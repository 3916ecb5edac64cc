import { roles } from './roles.ts';
import { z } from './zod.ts';
import { formatCount } from './locale.ts';
import { asLineFeeds, isMultiLine, isOneLine, textMessages } from './validation.ts';

/** Spec §5 and §2 (Q&A board), word for word, plus what the spec leaves open. */
export const qaMessages = {
  askSignedOut: 'Please log in to post a question.',
  askIncomplete: 'Please fill in both the question title and description.',
  answerSignedOut: 'Log in to answer.',
  voteSignedOut: 'Log in to vote.',
  empty: 'No questions found. Be the first to ask!',
  titleTooLong: (max: number) => `The title can be at most ${formatCount(max)} characters.`,
  textTooLong: (max: number) => `The text can be at most ${formatCount(max)} characters.`,
  answerEmpty: 'Write an answer first.',
  rateLimited: 'You are posting very quickly. Please wait a few minutes before posting again.',
  notFound: 'This question no longer exists.',
  answerNotFound: 'This answer no longer exists.',
  idReused: 'This post was already sent with different content.',
  acceptNotAsker: 'Only the person who asked can accept an answer.',
  deletedUser: 'Deleted user',
  tooManyPhotos: (max: number) => `A post can carry at most ${formatCount(max)} photos.`,
  photoTooLarge: 'This photo is too large even after resizing. Please take it again a little further away.',
  photoType: 'A photo must be a JPEG, PNG or WebP image.',
  photoNotFound: 'This photo no longer exists.',
  anonymousStudent: 'Anonymous student',
  anonymousHint: 'Classmates and visitors see "Anonymous student"; tutors and the admin still see your name.',
  endorsed: 'Endorsed by a tutor',
  endorseNotStaff: 'Only a tutor or the admin can endorse an answer.',
  unknownModule: 'Choose a module from the list, or Other.',
} as const;

export const qaLimits = {
  titleMax: 200,
  textMax: 10_000,
  pageSize: 20,
  /** Questions and answers one user may post in `rateWindowMinutes` (replays of a post already stored do not count). */
  postsPerWindow: 20,
  rateWindowMinutes: 10,
  /** Questions shown as like the title being typed, and the title's length before any are looked for. */
  similarMax: 5,
  similarMinChars: 8,
} as const;

/** The board's filter for questions tagged with no module ("Other"); a module's slug never reads so (slugify). */
export const otherModule = 'other';

/**
 * Photos of working (issue 39 §2, docs/decisions/0061): the device resizes a photo to at most `maxEdge` pixels and
 * about `targetBytes`, with a thumbnail of `thumbEdge`; the server refuses more than `perPost`, or bytes over the
 * caps, and checks the type from the bytes.
 */
export const photoLimits = {
  perPost: 3,
  maxEdge: 1600,
  targetBytes: 300 * 1024,
  maxBytes: 400 * 1024,
  thumbEdge: 240,
  thumbMaxBytes: 48 * 1024,
  types: ['image/jpeg', 'image/png', 'image/webp'],
} as const;
export type PhotoType = (typeof photoLimits.types)[number];

/** A post with photos is sent as multipart/form-data: the post, the photos' ids, then each photo and thumbnail. */
export const photoPostMaxBytes = photoLimits.perPost * (photoLimits.maxBytes + photoLimits.thumbMaxBytes) + 64 * 1024;

/** Where a photo is served: full size, or its thumbnail. */
export const photoPath = (id: string, size: 'full' | 'thumb' = 'full') =>
  `/api/photos/${encodeURIComponent(id)}${size === 'thumb' ? '/thumb' : ''}`;

/** The photos' ids of a post with photos (a multipart field, as JSON), in the order they show. */
export const photoIdsSchema = z.array(z.uuid()).max(photoLimits.perPost, qaMessages.tooManyPhotos(photoLimits.perPost));

/** Author of a post as everyone sees it: the display name only (never the e-mail), and null for a deleted account. */
export const authorSchema = z.object({
  id: z.string().nullable(),
  name: z.string(),
  role: z.enum(roles).nullable(),
});
export type Author = z.infer<typeof authorSchema>;

/**
 * A post's `text` is what its author typed (Markdown with maths and code); `html` is that text as every reader is
 * shown it, rendered and sanitised by the server with the board's one pipeline (post-html.ts, decision 0060).
 */
export const answerSchema = z.object({
  id: z.string(),
  questionId: z.string(),
  text: z.string(),
  html: z.string(),
  author: authorSchema,
  createdAt: z.string(),
  /** Its photos' ids, in order (photoPath); absent in a copy a device stored before photos. */
  photos: z.array(z.string()).optional(),
  /** Endorsed by a tutor or the admin (issue 39 §3), who stay unnamed; absent in a copy stored before endorsements. */
  endorsed: z.boolean().optional(),
  /** By the asker of an anonymous question: `author` reads "Anonymous student", and her question's `revealed` names her. */
  byAsker: z.boolean().optional(),
});
export type Answer = z.infer<typeof answerSchema>;

/**
 * The order answers show in, on the server's page and on the device alike: the accepted answer, then the endorsed
 * ones, then the rest, each group oldest first (the order the API lists them in, which `sort` keeps).
 */
export function orderAnswers<A extends Pick<Answer, 'id' | 'endorsed'>>(
  answers: readonly A[],
  acceptedId: string | null,
) {
  const rank = (a: A) => (a.id === acceptedId ? 0 : a.endorsed ? 1 : 2);
  return [...answers].sort((a, b) => rank(a) - rank(b));
}

/** The module a question is about: its catalogue slug and name, or null for "Other" (or a module since deleted). */
export const questionModuleSchema = z.object({ slug: z.string(), name: z.string() }).nullable();
export type QuestionModule = z.infer<typeof questionModuleSchema>;

export const voteValueSchema = z.union([z.literal(1), z.literal(-1), z.literal(0)]);
export type VoteValue = z.infer<typeof voteValueSchema>;

/** A question as the API sends it: with all its answers, oldest first, and the signed-in user's own vote. */
export const questionSchema = z.object({
  id: z.string(),
  title: z.string(),
  text: z.string(),
  html: z.string(),
  author: authorSchema,
  createdAt: z.string(),
  upvotes: z.number().int(),
  downvotes: z.number().int(),
  acceptedAnswerId: z.string().nullable(),
  /** Its photos' ids, in order (photoPath); absent in a copy a device stored before photos. */
  photos: z.array(z.string()).optional(),
  /** Absent in a copy a device stored before modules: read as "Other". */
  module: questionModuleSchema.optional(),
  /**
   * Posted anonymously to classmates: `author` then reads "Anonymous student" for everyone, and the real author
   * comes only in `revealed` (below), so that no copy a device keeps for everyone holds it.
   */
  anonymous: z.boolean().optional(),
  /**
   * The author of an anonymous question, sent only to tutors, the admin and the asker herself (`mine`); a device
   * keeps it with the signed-in user's data, which a log-out clears.
   */
  revealed: z.object({ author: authorSchema, mine: z.boolean() }).optional(),
  answers: z.array(answerSchema),
  /** 0 for a visitor. */
  myVote: voteValueSchema,
  /** Grows with every change to the question, its answers or its votes (see `since` below). */
  version: z.number().int(),
});
export type Question = z.infer<typeof questionSchema>;

/** `GET /api/questions?q=&cursor=`: newest first, 20 at a time; `nextCursor` is null on the last page. */
export const questionPageSchema = z.object({
  questions: z.array(questionSchema),
  nextCursor: z.string().nullable(),
});
export type QuestionPage = z.infer<typeof questionPageSchema>;

/**
 * `GET /api/questions?since=<version>`: every question changed after `version` (deleted ones as ids), oldest
 * change first, at most a page; `more` says there is another page from the returned `version`.
 */
export const questionChangesSchema = z.object({
  questions: z.array(questionSchema),
  deleted: z.array(z.string()),
  /** A position's text on Firestore (`12-0-7`), SQL's whole number as it always was (common/positions.ts). */
  version: z.union([z.number().int(), z.string()]),
  more: z.boolean(),
});
export type QuestionChanges = z.infer<typeof questionChangesSchema>;

/** A title is one line; a question's or an answer's text keeps its line breaks (validation.ts). */
const postTitle = (max: number, message: string) =>
  z.string().trim().max(max, message).refine(isOneLine, textMessages.oneLine);
const postText = (max: number, message: string) =>
  z.string().overwrite(asLineFeeds).trim().max(max, message).refine(isMultiLine, textMessages.multiLine);

/**
 * `POST /api/questions`. The id is made by the client, so a repeat of the same post creates nothing new. `module`:
 * a catalogue module's slug, or null for "Other" (left out by an app from before modules).
 */
export const askQuestionInputSchema = z.strictObject({
  id: z.uuid(),
  title: postTitle(qaLimits.titleMax, qaMessages.titleTooLong(qaLimits.titleMax)).min(1, qaMessages.askIncomplete),
  text: postText(qaLimits.textMax, qaMessages.textTooLong(qaLimits.textMax)).min(1, qaMessages.askIncomplete),
  module: z.string().min(1).max(100).nullable().default(null),
  anonymous: z.boolean().default(false),
});
export type AskQuestionInput = z.input<typeof askQuestionInputSchema>;

/** `POST /api/questions/:id/answers`. */
export const answerInputSchema = z.strictObject({
  id: z.uuid(),
  text: postText(qaLimits.textMax, qaMessages.textTooLong(qaLimits.textMax)).min(1, qaMessages.answerEmpty),
});
export type AnswerInput = z.input<typeof answerInputSchema>;

/** `GET /api/questions/my-votes`: the signed-in user's votes (a device that has just logged in learns them at once). */
export const myVotesSchema = z.object({
  votes: z.array(z.object({ questionId: z.string(), value: z.union([z.literal(1), z.literal(-1)]) })),
});
export type MyVotes = z.infer<typeof myVotesSchema>;

/** `PUT /api/questions/:id/vote`: the vote is set, not toggled, so sending it twice is harmless. */
export const voteInputSchema = z.strictObject({ value: voteValueSchema });

/** `PUT /api/questions/:id/accepted-answer`: the asker picks one answer, or none (null). */
// Not only UUIDs: answers brought from the old Firebase site keep their Firestore ids.
export const acceptAnswerInputSchema = z.strictObject({ answerId: z.string().min(1).max(128).nullable() });

/** `PUT /api/questions/:id/follow`: follow the question (hear of its answers), or stop. */
export const followInputSchema = z.strictObject({ following: z.boolean() });

/** `PUT /api/questions/:id/answers/:answerId/endorsement`: set, not toggled, so sending it twice is harmless. */
export const endorseInputSchema = z.strictObject({ endorsed: z.boolean() });

/** Words too common to tell one question from another. */
const commonWords = new Set(
  (
    'about after also because been before being does doing from have help into just like make more need only other ' +
    'please question should some than that their them then there these they this what when where which while with ' +
    'would your'
  ).split(' '),
);

/**
 * The words of a title that can tell questions apart (similar questions, issue 39 §3): 4 characters or more, not
 * common, the longest 4. The server searches by them, and a device offline looks among its own questions.
 */
export function telling(title: string): string[] {
  const words = new Set(title.toLowerCase().match(/[\p{L}\p{N}+#]{4,}/gu) ?? []);
  return [...words]
    .filter((w) => !commonWords.has(w))
    .sort((a, b) => b.length - a.length)
    .slice(0, 4);
}

/** `GET /api/questions/similar?title=`: the questions most like a title being typed, with their answer counts. */
export const similarQuestionsSchema = z.object({
  questions: z.array(
    z.object({ id: z.string(), title: z.string(), answerCount: z.number().int(), module: questionModuleSchema }),
  ),
});
export type SimilarQuestions = z.infer<typeof similarQuestionsSchema>;
export type SimilarQuestion = SimilarQuestions['questions'][number];

/** `GET /api/questions/revealed`: who asked each anonymous question the signed-in user may see the name of. */
export const revealedAuthorsSchema = z.object({
  revealed: z.array(z.object({ questionId: z.string(), author: authorSchema, mine: z.boolean() })),
});
export type RevealedAuthors = z.infer<typeof revealedAuthorsSchema>;
