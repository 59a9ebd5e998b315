/* eslint-disable @n8n/community-nodes/no-restricted-imports -- demo/e2e tooling in plain Node: it probes loopback ports */
import net from 'node:net';

/** A free TCP port on loopback. */
export async function freePort(): Promise<number> {
	return await new Promise<number>((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

/** True when something accepts connections on 127.0.0.1:port. */
export async function portInUse(port: number): Promise<boolean> {
	return await new Promise<boolean>((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}
