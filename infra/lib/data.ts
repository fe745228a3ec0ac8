import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';

/**
 * DEFAULT_GSIS are the indexes shared/store.Indexes creates locally: GSI1 lists a collection by
 * updatedAt, GSI2 by name (and serves name-prefix search), GSI3 is sparse (unread notifications,
 * media by type). CloudFormation adds at most one GSI per table update: an existing stack that
 * has only GSI1 is deployed twice (GSI2, then GSI3) — see README "Lists".
 */
export const DEFAULT_GSIS: readonly string[] = ['GSI1', 'GSI2', 'GSI3'];

/** DataProps configure the single table (DESIGN §3). */
export interface DataProps {
  /** production turns on deletion protection and keeps the table when the stack is deleted. */
  readonly production: boolean;
  /** gsiNames are the global secondary indexes the store queries; each has {name}PK/{name}SK string keys. */
  readonly gsiNames?: readonly string[];
}

/**
 * Data is the one DynamoDB table holding every tenant's items: PK/SK strings, GSI1-3, TTL on
 * expiresAt (sessions, failed-login counters), on-demand billing (traffic is spiky and small per
 * tenant), point-in-time recovery, and encryption with the AWS-managed KMS key (key use shows up
 * in CloudTrail; no key of ours to rotate or lose).
 */
export class Data extends Construct {
  /** table is the single table. */
  readonly table: dynamodb.Table;
  /** indexNames are the GSIs, for least-privilege grants on exactly those index ARNs. */
  readonly indexNames: readonly string[];

  constructor(scope: Construct, id: string, props: DataProps) {
    super(scope, id);
    this.indexNames = props.gsiNames ?? DEFAULT_GSIS;
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: 'PK', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'SK', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expiresAt',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      deletionProtection: props.production,
      removalPolicy: props.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    });
    for (const name of this.indexNames) {
      this.table.addGlobalSecondaryIndex({
        indexName: name,
        partitionKey: { name: `${name}PK`, type: dynamodb.AttributeType.STRING },
        sortKey: { name: `${name}SK`, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      });
    }
  }

  /** indexArns are the ARNs of the GSIs (not index/*, so grants name exactly what exists). */
  indexArns(): string[] {
    return this.indexNames.map((n) => `${this.table.tableArn}/index/${n}`);
  }
}
