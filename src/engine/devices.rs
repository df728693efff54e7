//! Acquiring the devices the engine runs on.
//!
//! The GPU device comes from burn-wgpu, initialised asynchronously (the only way that works in a
//! browser; natively the same future is simply blocked on). The CPU device is burn-flex, which
//! needs no initialisation.

use burn::backend::wgpu::wgpu::{self, AdapterInfo};
use burn::tensor::Device;

/// An initialised GPU device and the adapter behind it.
#[derive(Clone, Debug)]
pub struct GpuDevice {
    /// burn's device handle.
    pub device: Device,
    /// Human-readable adapter name.
    pub adapter: String,
    /// The wgpu device burn runs on (to watch for its loss).
    pub wgpu_device: wgpu::Device,
}

/// Name shown for the CPU backend.
pub const CPU_DEVICE_NAME: &str = "Flex (CPU)";

/// Initialises burn-wgpu on the default adapter.
///
/// # Errors
/// burn's initialisation error, as text, when no adapter or device is available.
pub async fn init_gpu() -> Result<GpuDevice, String> {
    let (device, setup) = Device::wgpu_options()
        .init_with_setup_async()
        .await
        .map_err(|error| error.to_string())?;
    Ok(GpuDevice {
        device,
        adapter: describe_adapter(&setup.adapter.get_info()),
        wgpu_device: setup.device,
    })
}

/// The most specific name an adapter gives (browsers often leave the name empty), with the
/// graphics API.
pub fn describe_adapter(info: &AdapterInfo) -> String {
    let name = [info.name.as_str(), info.driver.as_str()]
        .into_iter()
        .find(|part| !part.is_empty())
        .map(str::to_owned)
        .unwrap_or_else(|| format!("{:?} adapter", info.device_type));
    format!("{name} ({})", info.backend)
}
