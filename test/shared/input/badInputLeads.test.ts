// Bad input, generated, for Scraper Marketplace's Lead operations: every parameter each shows, values that break its
// rule are refused naming it with nothing sent, values that keep it pass validation. The whole of it, Scraper
// Platform's and the credentials': badInput.test.ts.
import { describeOperations, useBadInput } from './badInputCases';
import { isMarketplaceLead, OPERATIONS } from './badInputOperations';

const ctx = useBadInput('Scraper Marketplace Lead operations');

describeOperations(ctx, OPERATIONS.filter(isMarketplaceLead));
