import * as fs from 'node:fs';
import * as path from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { basePathFor, RouteTable } from './routes';

/** FunctionSizing is one group's memory and timeout. */
export interface FunctionSizing {
  readonly memoryMiB: number;
  readonly timeout: Duration;
}

/**
 * DEFAULT_SIZING: 256 MiB, 10 s. A group Lambda is a small Go binary (~6 MB, ~20 MB RSS) doing a
 * handful of DynamoDB calls per request, so memory matters only as CPU share; 256 MiB keeps
 * cold starts short at low cost. 10 s bounds a stuck call well inside API Gateway's 30 s
 * integration limit while leaving room for SDK retries.
 */
export const DEFAULT_SIZING: FunctionSizing = { memoryMiB: 256, timeout: Duration.seconds(10) };

/**
 * GROUP_SIZING overrides per group. auth hashes passwords with argon2id (t=2, m=19 MiB), which is
 * CPU-bound: 512 MiB gives twice the CPU share of 256 MiB, keeping a login near 100 ms. design
 * (the media library) decodes every uploaded image whole when the upload is confirmed, to refuse
 * damaged files and decompression bombs: up to 40 megapixels, about 160 MB of pixels on top of
 * the 5 MB file, which 256 MiB cannot hold; 512 MiB can. Its timeout stays 10 s: such a decode
 * takes ~0.4 s (JPEG) to ~1 s (PNG) of a full vCPU, about 3.5 times that at 512 MiB's share.
 */
export const GROUP_SIZING: Readonly<Record<string, FunctionSizing>> = {
  auth: { memoryMiB: 512, timeout: Duration.seconds(10) },
  design: { memoryMiB: 512, timeout: Duration.seconds(10) },
};

/** ApiProps configure the HTTP API and its group functions. */
export interface ApiProps {
  readonly routes: RouteTable;
  /** functionsDir holds <group>/bootstrap, built by infra/scripts/build-functions.sh. */
  readonly functionsDir: string;
  /** environment is passed to every function (TABLE_NAME, MEDIA_BUCKET, LOG_LEVEL, ...). */
  readonly environment: Readonly<Record<string, string>>;
  readonly logRetention: logs.RetentionDays;
  readonly production: boolean;
  /** throttle is the stage-wide rate (requests/s, steady) and burst limit. */
  readonly throttle: { readonly rateLimit: number; readonly burstLimit: number };
  readonly sizing?: Readonly<Record<string, FunctionSizing>>;
}

/** GroupFunction is one group's Lambda and its role (the stack adds the data grants). */
export interface GroupFunction {
  readonly group: string;
  readonly fn: lambda.Function;
  readonly role: iam.Role;
}

/**
 * Api is the HTTP API with one Go Lambda per resource group of the route table, each owning
 * ANY {basePath}/{prefix} and ANY {basePath}/{prefix}/{proxy+} for its prefixes, and the
 * website group's Lambda on the $default route (every other path).
 */
export class Api extends Construct {
  readonly httpApi: apigwv2.HttpApi;
  readonly stage: apigwv2.HttpStage;
  readonly functions: ReadonlyMap<string, GroupFunction>;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const removalPolicy = props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    this.httpApi = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'campuscms API (panel /api/*) and websites ($default), reached through CloudFront',
      createDefaultStage: false,
    });
    const accessLogs = new logs.LogGroup(this, 'StageAccessLogs', { retention: props.logRetention, removalPolicy });
    this.stage = new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: this.httpApi,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            time: '$context.requestTime',
            method: '$context.httpMethod',
            path: '$context.path',
            routeKey: '$context.routeKey',
            status: '$context.status',
            latencyMs: '$context.responseLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });

    const functions = new Map<string, GroupFunction>();
    for (const group of Object.keys(props.routes.groups)) {
      const gf = this.groupFunction(props, group, props.routes.groups[group].join(', '));
      const integration = new HttpLambdaIntegration(`Group${pascal(group)}Integration`, gf.fn);
      for (const prefix of props.routes.groups[group]) {
        const base = basePathFor(props.routes, group);
        for (const p of [`${base}/${prefix}`, `${base}/${prefix}/{proxy+}`]) {
          this.httpApi.addRoutes({ path: p, methods: [apigwv2.HttpMethod.ANY], integration });
        }
      }
      functions.set(group, gf);
    }
    if (props.routes.website) {
      const group = props.routes.website;
      const gf = this.groupFunction(props, group, 'every path on a website host ($default route)');
      // $default catches whatever no other route owns. HttpApi's defaultIntegration prop creates
      // exactly this route (HttpRoute "DefaultRoute", HttpRouteKey.DEFAULT) but only in the
      // HttpApi's constructor, before the function exists; declaring the route here keeps the
      // website built like every group. API Gateway picks the most specific route, so the
      // groups' prefixes keep their requests.
      new apigwv2.HttpRoute(this.httpApi, 'DefaultRoute', {
        httpApi: this.httpApi,
        routeKey: apigwv2.HttpRouteKey.DEFAULT,
        integration: new HttpLambdaIntegration(`Group${pascal(group)}Integration`, gf.fn),
      });
      functions.set(group, gf);
    }
    this.functions = functions;
  }

  /**
   * groupFunction is one group's Lambda with its own role and log group; the stack adds the data
   * grants. Sizing: props.sizing, then GROUP_SIZING, then DEFAULT_SIZING.
   */
  private groupFunction(props: ApiProps, group: string, serves: string): GroupFunction {
    const removalPolicy = props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
    const assetDir = path.join(props.functionsDir, group);
    if (!fs.existsSync(path.join(assetDir, 'bootstrap'))) {
      throw new Error(
        `Api: ${path.join(assetDir, 'bootstrap')} is missing; run infra/scripts/build-functions.sh (builds every group in routes.json) before synth`,
      );
    }
    const sizing = props.sizing?.[group] ?? GROUP_SIZING[group] ?? DEFAULT_SIZING;
    const logGroup = new logs.LogGroup(this, `Group${pascal(group)}Logs`, { retention: props.logRetention, removalPolicy });
    // An explicit role instead of the default one: no AWSLambdaBasicExecutionRole managed
    // policy (it allows writing to any log group); this role may write only to its own group.
    const role = new iam.Role(this, `Group${pascal(group)}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `campuscms ${group} group function`,
    });
    logGroup.grantWrite(role);
    const fn = new lambda.Function(this, `Group${pascal(group)}Function`, {
      description: `campuscms ${group}: ${serves}`,
      runtime: lambda.Runtime.PROVIDED_AL2023,
      architecture: lambda.Architecture.ARM_64,
      handler: 'bootstrap',
      code: lambda.Code.fromAsset(assetDir),
      memorySize: sizing.memoryMiB,
      timeout: sizing.timeout,
      role,
      logGroup,
      loggingFormat: lambda.LoggingFormat.JSON,
      environment: { ...props.environment },
    });
    return { group, fn, role };
  }

  /** endpointHost is the execute-api host name, for CloudFront's origin. */
  endpointHost(): string {
    // apiEndpoint is https://{id}.execute-api.{region}.amazonaws.com
    return `${this.httpApi.apiId}.execute-api.${this.httpApi.stack.region}.${this.httpApi.stack.urlSuffix}`;
  }
}

/** pascal turns a group name like "theme-settings" into "ThemeSettings" for construct ids. */
export function pascal(s: string): string {
  return s
    .split(/[^a-zA-Z0-9]/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}
