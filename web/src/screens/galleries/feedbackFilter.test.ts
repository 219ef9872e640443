import { describe, expect, it } from 'vitest';
import { feedbackFilterFrom, feedbackLabel, feedbackVariables } from './feedbackFilter.ts';
import { totalsText } from './FeedbackSummary.tsx';

describe('the pick filter in the address', () => {
  it('reads known filters and takes anything else for all photos', () => {
    expect(feedbackFilterFrom('picked')).toBe('picked');
    expect(feedbackFilterFrom('unreviewed')).toBe('unreviewed');
    expect(feedbackFilterFrom('PICKED')).toBe('all');
    expect(feedbackFilterFrom(null)).toBe('all');
    expect(feedbackVariables('rejected')).toEqual({ feedback: 'rejected', filtered: true });
    expect(feedbackVariables('nonsense')).toEqual({ feedback: 'all', filtered: false });
  });
});

describe('feedback wording', () => {
  it('says what a photo got, leaving out what it did not', () => {
    expect(feedbackLabel({ yes: 2, no: 0, maybe: 0, comments: 1 })).toBe('2 Yes, 1 comment');
    expect(feedbackLabel({ yes: 0, no: 1, maybe: 1, comments: 3 })).toBe('1 No, 1 Maybe, 3 comments');
    expect(feedbackLabel({ yes: 0, no: 0, maybe: 0, comments: 0 })).toBe('');
  });

  it('sums a gallery up as "12 picked · 3 rejected · 8 comments"', () => {
    expect(totalsText({ picked: 12, rejected: 3, maybe: 0, comments: 8 })).toBe('12 picked · 3 rejected · 8 comments');
    expect(totalsText({ picked: 1, rejected: 0, maybe: 2, comments: 1, unreviewed: 4 })).toBe(
      '1 picked · 0 rejected · 2 maybe · 1 comment · 4 unreviewed',
    );
  });
});
