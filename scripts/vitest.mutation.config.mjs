// The tests the main group of `npm run mutation` (scripts/stryker.config.mjs) runs against each
// mutant: the files that exercise the mutated modules in-process. Tests that spawn the built
// binary are left out (they run dist/, which never holds a mutant), and so is the build in the
// global setup. So is test/commands/mcp/serve.test.ts: it loads the whole CLI for each mutant it
// reaches, and the tools of src/mcp/tools.ts are tested by test/mcp/{tools,calls,output-schemas}.test.ts.
import base from '../vitest.config.ts';

export default {
  ...base,
  test: {
    ...base.test,
    // Replaced, not merged: only these files, and no global setup (no build needed).
    include: [
      'test/errors.test.ts',
      'test/error-report.test.ts',
      'test/cli.test.ts',
      'test/proxy-credentials.test.ts',
      'test/api/{retry,retry-after,wording,wording-bodies,wording-words,paginate,client,failure}.test.ts',
      'test/api/{client-fields,proxy-timeout,plain-http,receiver-words}.test.ts',
      'test/domain/webhooks/http.test.ts',
      'test/commands/events/send.test.ts',
      'test/bulk/{limiter,page-walk}.test.ts',
      'test/properties/*.test.ts',
      'test/domain/webhooks/{signature*,event-list,webhook-url-refusals,delivery}.test.ts',
      'test/rules/{webhook-url,event-names}.test.ts',
      'test/domain/webhooks/sync/*.test.ts',
      'test/text/{sanitize,sanitize-gate}.test.ts',
      'test/mask.test.ts',
      'test/security/mask-before-cut.test.ts',
      'test/io/stream-io.test.ts',
      'test/config/trust*.test.ts',
      'test/commands/webhooks/sync.test.ts',
      'test/commands/sig/sig.test.ts',
      'test/mcp/{tools,calls,output-schemas,selection,traps}.test.ts',
      'test/domain/webhooks/listen/*.test.ts',
      'test/commands/webhooks/{listen,listen-ci}.test.ts',
      'test/domain/webhooks/{secret-policy,env-secret-wording,meeting}.test.ts',
      'test/sandbox/{actions,bookings,library,router}.test.ts',
      'test/rules/binding-names.test.ts',
      'test/docs/reference.test.ts',
      'test/commands/events/sample.test.ts',
      'test/output/{show,masked-formats,render,render-received,table-fit}.test.ts',
    ],
    globalSetup: [],
  },
};
