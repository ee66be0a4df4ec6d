export { createDemoCompany, type DemoCompany, type DemoDeps } from './demo-company.ts';
