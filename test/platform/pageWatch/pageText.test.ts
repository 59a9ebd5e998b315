import { htmlText, markdownText } from '../../../nodes/ScraperPlatform/pageWatch/pageText';

/** The text Page Changed compares: readable text of the HTML, or the Markdown, normalised the same way each time. */

describe('htmlText', () => {
	it('drops the head, scripts, styles and comments, breaks lines at block elements and decodes entities', () => {
		const html =
			'<!DOCTYPE html><html><head><title>Chair</title><style>p{color:red}</style></head><body>' +
			'<!-- price --><h1>Classic&nbsp;Chair</h1><div class="p"><span>Now</span> <b>&euro;44&#46;99</b> &amp; free&#x20;shipping</div>' +
			'<script type="module">track("x < y")</script><ul><li>In stock</li><li>Ships &lt;24h&gt;</li></ul><noscript>Enable JS</noscript></body></html>';
		expect(htmlText(html)).toBe('Classic Chair\nNow \u20ac44.99 & free shipping\nIn stock\nShips <24h>');
	});

	it('spacing and line breaks inside a block are one space; blank lines go', () => {
		expect(htmlText('<p>\n  Only   2\n left </p>\n\n<br/><p></p><P>Next</P>')).toBe('Only 2 left\nNext');
	});

	it('leaves unknown entities and impossible code points as written', () => {
		expect(htmlText('<p>&bogus; &#0; &#x110000;</p>')).toBe('&bogus; &#0; &#x110000;');
	});
});

describe('markdownText', () => {
	it('keeps indentation, trims line ends and runs of blank lines to one', () => {
		expect(markdownText('\r\n# Chair\r\n\r\n\r\n- item  \n  - nested\n\n\n')).toBe('# Chair\n\n- item\n  - nested');
	});
});
