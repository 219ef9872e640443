// Imported first by a bench that measures the app as it runs in production. graphql-js reads
// NODE_ENV once, when it loads, and outside production checks every instanceof across realms (a few
// per cent of a GraphQL request); a production server is started with NODE_ENV=production.
process.env.NODE_ENV = 'production';
