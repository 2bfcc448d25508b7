import { createHash } from 'node:crypto';
import { expect } from 'chai';
import {
  BADGE_HEIGHT,
  BADGE_WIDTH,
  badgeStatus,
  badgeUrl,
  certify,
  renderBadge,
  BADGE_NAME_MAX_WIDTH,
  type BadgeContent,
} from '../../../src/certification/index.js';

describe('certification (DOMAIN §11)', () => {
  describe('score', () => {
    it('is the adequacy overall and its grade when no BLOCKING finding is open', () => {
      expect(certify({ adequacy_overall: 91, open_blocking: 0, issued_on: '2026-03-05' })).to.deep.equal({
        score: 91,
        grade: 'A',
        capped: false,
        issued_on: '2026-03-05',
        valid_until: '2026-06-03',
      });
    });

    it('is capped at 64 (a D) while a BLOCKING finding is open', () => {
      expect(certify({ adequacy_overall: 91, open_blocking: 1, issued_on: '2026-03-05' })).to.include({
        score: 64,
        grade: 'D',
        capped: true,
      });
    });

    it('leaves a score already at or below the cap alone', () => {
      expect(certify({ adequacy_overall: 40, open_blocking: 2, issued_on: '2026-03-05' })).to.include({
        score: 40,
        grade: 'F',
        capped: false,
      });
      expect(certify({ adequacy_overall: 64, open_blocking: 1, issued_on: '2026-03-05' })).to.include({
        score: 64,
        capped: false,
      });
    });
  });

  describe('badge status', () => {
    const cert = { id: 'CERT-aaaaaaaaaaaaaaaa', valid_until: '2026-06-03' };

    it('is VALID through valid_until when it is the project’s latest certification', () => {
      expect(badgeStatus(cert, cert.id, '2026-03-05')).to.equal('VALID');
      expect(badgeStatus(cert, cert.id, '2026-06-03')).to.equal('VALID');
    });

    it('is EXPIRED the day after valid_until', () => {
      expect(badgeStatus(cert, cert.id, '2026-06-04')).to.equal('EXPIRED');
    });

    it('is SUPERSEDED once a newer certification exists, even if it also expired', () => {
      expect(badgeStatus(cert, 'CERT-bbbbbbbbbbbbbbbb', '2026-03-06')).to.equal('SUPERSEDED');
      expect(badgeStatus(cert, 'CERT-bbbbbbbbbbbbbbbb', '2027-01-01')).to.equal('SUPERSEDED');
    });
  });

  describe('badge', () => {
    const content: BadgeContent = {
      grade: 'B',
      score: 84,
      status: 'VALID',
      issued_on: '2026-03-05',
      project_name: 'Harbor Lofts',
    };

    it('shows grade, score, status, issue date and project name at a fixed size', () => {
      const svg = renderBadge(content);
      expect(svg).to.match(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="320" height="96"/);
      expect([BADGE_WIDTH, BADGE_HEIGHT]).to.deep.equal([320, 96]);
      for (const text of ['>B<', '>84/100<', '>VALID<', '>issued 2026-03-05<', '>Harbor Lofts<'])
        expect(svg).to.include(text);
    });

    it('is byte-for-byte deterministic', () => {
      const digest = (s: string) => createHash('sha256').update(s).digest('hex');
      expect(digest(renderBadge(content))).to.equal(digest(renderBadge({ ...content })));
    });

    it('escapes the project name and refers to nothing external', () => {
      const svg = renderBadge({ ...content, project_name: `<script>alert("x")</script> & O'Brien` });
      expect(svg).to.not.include('<script>');
      expect(svg).to.include('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; O&apos;Brien');
      expect(svg).to.not.match(/href|@import|url\(|<script|<image|<foreignObject/i);
    });

    it('keeps its size with a long name by cutting it, by its drawn width, with an ellipsis', () => {
      const nameOf = (project_name: string) =>
        /font-size="13" font-weight="bold" fill="#222222">([^<]*)</.exec(
          renderBadge({ ...content, project_name }),
        )![1];
      expect(nameOf('Harbor View Lofts')).to.equal('Harbor View Lofts');
      // 37 ordinary characters drew 300 px wide in a 206 px space: cut so they stay inside the border.
      expect(nameOf('Riverside Commons Apartments Phase II')).to.equal('Riverside Commons A…');
      // A W is 14.3 px in DejaVu Sans Bold 13 px: at most 14 fit in BADGE_NAME_MAX_WIDTH with the ellipsis.
      expect(BADGE_NAME_MAX_WIDTH).to.equal(206);
      expect(nameOf('W'.repeat(40))).to.match(/^W{1,13}…$/);
      expect(nameOf('🏗'.repeat(40))).to.match(/^(🏗){1,11}…$/);
    });

    it('drops bidirectional controls and the non-characters XML forbids from the project name', () => {
      const svg = renderBadge({ ...content, project_name: 'Harbor \u202EstfoL\uFFFF' });
      // U+202E showed the name reversed and, in the label, the grade, score and status after it;
      // U+FFFF is no XML character, so the badge did not parse as an image at all.
      expect(svg).to.not.match(/[\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]/);
      expect(svg).to.include('>Harbor stfoL<');
      expect(svg).to.include('<title>Plumbline certification: Harbor stfoL, grade B, score 84,');
    });

    it('greys out a badge that no longer vouches (EXPIRED, SUPERSEDED)', () => {
      expect(renderBadge(content)).to.include('fill="#558b2f"');
      expect(renderBadge({ ...content, status: 'SUPERSEDED' })).to.not.include('#558b2f');
      expect(renderBadge({ ...content, status: 'EXPIRED' })).to.include('>EXPIRED<');
    });
  });

  it('builds the SPEC §6 badge_url from the public base URL', () => {
    expect(badgeUrl('https://plumbline.example/', 'CERT-aaaaaaaaaaaaaaaa')).to.equal(
      'https://plumbline.example/api/certification?action=badge&cert=CERT-aaaaaaaaaaaaaaaa',
    );
  });
});
