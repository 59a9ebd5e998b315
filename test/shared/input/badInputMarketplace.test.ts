// Bad input, generated, for Scraper Marketplace's operations other than Lead's (those are in
// badInputLeads.test.ts): every parameter each shows, values that break its rule are refused naming it with nothing
// sent, values that keep it pass validation. The whole of it, Scraper Platform's and the credentials': badInput.test.ts.
import { describeOperations, useBadInput } from './badInputCases';
import { isMarketplaceOther, OPERATIONS } from './badInputOperations';

const ctx = useBadInput('Scraper Marketplace operations but Lead');

describeOperations(ctx, OPERATIONS.filter(isMarketplaceOther));
