import { expect } from 'chai';
import { escapeHtml, fillTemplate, html, join } from '../../../src/pages/html.js';

describe('page HTML escaping', () => {
  it('escapes every interpolated string, number and list item', () => {
    const name = `<script>alert("x")</script> & 'co'`;
    const out = html`<p title="${name}">${name}</p>
      <ul>
        ${[name, 1].map((v) => html`<li>${v}</li>`)}
      </ul>`;
    // Prettier lays the template out over lines; whitespace between tags is not what is tested.
    expect(out.value.replace(/>\s+</g, '><')).to.equal(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</p>' +
        '<ul><li>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;co&#39;</li><li>1</li></ul>',
    );
  });

  it('keeps markup built by the tag, and renders null, undefined and false as nothing', () => {
    expect(html`<b>${html`<i>${'a<b'}</i>`}</b>${null}${undefined}${false}`.value).to.equal(
      '<b><i>a&lt;b</i></b>',
    );
    expect(join([html`<br />`, '<br>']).value).to.equal('<br />&lt;br&gt;');
    expect(escapeHtml('0 < 1')).to.equal('0 &lt; 1');
  });
});

describe('page templates', () => {
  it('fills each {{slot}} with its markup', () => {
    const page = fillTemplate('<h1>{{title}}</h1>{{body}}{{title}}', {
      title: html`A&B`,
      body: html`<p>${'<x>'}</p>`,
    });
    expect(page.value).to.equal('<h1>A&B</h1><p>&lt;x&gt;</p>A&B');
  });

  it('refuses a slot without a value and a value without a slot, so a section is never dropped', () => {
    expect(() => fillTemplate('{{a}}{{b}}', { a: html`` })).to.throw(/\{\{b\}\} has no value/);
    expect(() => fillTemplate('{{a}}', { a: html``, c: html`` })).to.throw(/no slot for c/);
  });
});
