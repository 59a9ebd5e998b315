import { ICredentialsHelper } from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeProperties,
	IRequestOptionsSimplified,
	IWorkflowExecuteAdditionalData,
	Workflow,
} from 'n8n-workflow';

/**
 * Applies a credential's `authenticate` the way n8n's CredentialsHelper does: generic header/query/body/auth
 * entries are resolved as expressions with `$credentials`, functions are called.
 */
export class CredentialsHelper extends ICredentialsHelper {
	constructor(
		private readonly types: Map<string, ICredentialType>,
		private readonly data: Record<string, ICredentialDataDecryptedObject>,
	) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const options = requestOptions as IHttpRequestOptions;
		const authenticate = this.types.get(typeName)?.authenticate;
		if (!authenticate) return options;
		if (typeof authenticate === 'function') return await authenticate(credentials, options);
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(node, value, 'internal', { $credentials: credentials }, undefined, '')
				: value;
		const { properties } = authenticate;
		for (const key of ['headers', 'qs', 'body'] as const) {
			const entries = properties[key] as IDataObject | undefined;
			if (!entries) continue;
			const target = ((options as unknown as Record<string, IDataObject>)[key] ??= {});
			for (const [name, value] of Object.entries(entries)) target[name] = resolve(value) as IDataObject[string];
		}
		if (properties.auth) {
			const auth = properties.auth as { username: string; password: string };
			options.auth = { username: String(resolve(auth.username)), password: String(resolve(auth.password)) };
		}
		return options;
	}

	async preAuthentication(): Promise<ICredentialDataDecryptedObject | undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('getCredentials is not used by nodes');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: unknown,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const data = this.data[type];
		if (!data) throw new Error(`No test credentials of type ${type}`);
		// A copy, as n8n decrypts a fresh object for each use.
		return { ...data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.types.get(type)?.properties ?? [];
	}
}
